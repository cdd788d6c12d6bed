package import Foundation
import Logging
import MCP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// MCP's stdio framing (one JSON-RPC message a line) on blocking reads in a thread of its own.
/// The SDK's `StdioTransport` makes standard input non-blocking and asks it again every 10 ms
/// while the agent says nothing: about 3% of a core for every idle `mockd mcp`, all day, on a
/// laptop. A blocked `read` costs nothing until the agent writes or goes.
package actor LineTransport: Transport {
    nonisolated let logger = Logger(label: "mockd.mcp", factory: { _ in SwiftLogNoOpLogHandler() })
    private let messages: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private var reading = false

    init() {
        (messages, continuation) = AsyncThrowingStream.makeStream()
    }

    func connect() async throws {
        guard !reading else { return }
        reading = true
        let continuation = self.continuation
        Thread.detachNewThread { Self.readLines(from: 0, into: continuation) }
    }

    /// Ends the stream of messages, as the end of standard input does: the server's loop ends.
    /// A read still blocked stays so until the process exits.
    func disconnect() async {
        continuation.finish()
    }

    func send(_ data: Data) async throws {
        var bytes = [UInt8](data)
        bytes.append(UInt8(ascii: "\n"))
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
            }
            sent += count
        }
    }

    nonisolated func receive() -> AsyncThrowingStream<Data, any Error> {
        messages
    }

    /// Reads `descriptor` (standard input) until its end, yielding each non-empty line (a
    /// trailing CR dropped), then finishes the stream.
    package static func readLines(from descriptor: Int32, into continuation: AsyncThrowingStream<Data, any Error>.Continuation) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            pending.append(contentsOf: buffer[..<count])
            var start = 0
            while let end = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = pending[start..<end]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                if !line.isEmpty { continuation.yield(Data(line)) }
                start = end + 1
            }
            pending.removeFirst(start)
        }
        continuation.finish()
    }
}
