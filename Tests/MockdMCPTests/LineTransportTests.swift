import Foundation
import MockdMCP
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The framing `mockd mcp` reads from its agent: one message a line, through a real pipe.
@Suite struct LineTransportTests {
    /// The lines read from a pipe written in `chunks` and then closed.
    static func lines(written chunks: [String]) async throws -> [String] {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let reader = ends[0]
        Thread.detachNewThread {
            LineTransport.readLines(from: reader, into: continuation)
            close(reader)
        }
        for chunk in chunks {
            let bytes = Array(chunk.utf8)
            #expect(bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == bytes.count)
        }
        close(ends[1])
        var lines: [String] = []
        for try await line in stream { lines.append(String(decoding: line, as: UTF8.self)) }
        return lines
    }

    @Test func eachLine_IsOneMessage() async throws {
        #expect(try await Self.lines(written: [#"{"id":1}"# + "\n" + #"{"id":2}"# + "\n"]) == [#"{"id":1}"#, #"{"id":2}"#])
    }

    @Test func aMessageSplitAcrossWrites_IsWhole() async throws {
        #expect(try await Self.lines(written: [#"{"jsonrpc":"#, #""2.0"}"# + "\n"]) == [#"{"jsonrpc":"2.0"}"#])
    }

    @Test func crlfAndEmptyLines_AreNotMessages() async throws {
        #expect(try await Self.lines(written: ["{}\r\n", "\n", "\r\n", "[]\n"]) == ["{}", "[]"])
    }

    /// The end of input ends the stream (the server then closes its session); an unfinished last line is dropped.
    @Test func endOfInput_FinishesTheStream() async throws {
        #expect(try await Self.lines(written: ["{}\n", "{\"unfinished\""]) == ["{}"])
    }
}
