import Foundation
import TestSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import TestSupport

/// A response read off a raw socket.
struct RawResponse: Sendable, CustomStringConvertible {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    /// The first value of `name`, compared case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    var description: String {
        "HTTP \(status) " + headers.map { "\($0.name): \($0.value)" }.joined(separator: "; ") + " | " + text
    }
}

struct RawHTTPError: Error, CustomStringConvertible {
    let description: String
}

/// A blocking TCP connection to 127.0.0.1 that sends exactly the bytes a test gives it:
/// what URLSession will not send (bad percent-encoding, huge headers, half a body…).
/// Every read gives up at the connection's timeout. Use it from `blocking { }`.
final class RawConnection {
    let fd: Int32
    let port: Int
    private var buffer: [UInt8] = []

    init(port: Int, timeout: Duration = eventDeadline) throws {
        self.port = port
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTPError(description: "socket: \(String(cString: strerror(errno)))") }
        var time = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            _ = closeDescriptor(fd)
            throw RawHTTPError(description: "connect to 127.0.0.1:\(port): \(reason)")
        }
    }

    private var isClosed = false

    deinit { close() }

    /// Closes the connection now (a client hanging up).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = closeDescriptor(fd)
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { socketSend(fd, $0.baseAddress, $0.count) }
            guard sent > 0 else { throw RawHTTPError(description: "send: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// Reads more bytes into the buffer; false at end of stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            let code = errno
            throw RawHTTPError(
                description: code == EAGAIN || code == EWOULDBLOCK
                    ? "timed out waiting for the server" : "recv: \(String(cString: strerror(code)))")
        }
        if count == 0 { return false }
        buffer.append(contentsOf: chunk.prefix(count))
        return true
    }

    /// Reads one response. `head`: the request was HEAD, so no body follows the headers.
    /// Bytes after the response stay buffered for the next call (keep-alive, pipelining).
    func readResponse(head: Bool = false) throws -> RawResponse {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while true {
            if let index = firstIndex(of: separator) { headEnd = index; break }
            guard try fill() else {
                throw RawHTTPError(
                    description:
                        "connection closed before a full response head; got \(String(decoding: buffer, as: UTF8.self).debugDescription)")
            }
        }
        let headText = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        buffer.removeSubrange(..<(headEnd! + separator.count))
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw RawHTTPError(description: "not an HTTP status line: \(statusLine.debugDescription)")
        }
        let headers: [(name: String, value: String)] = lines.compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = RawResponse(status: status, headers: headers, body: [])
        if head || (100..<200).contains(status) || status == 204 || status == 304 { return response }
        if let length = response.header("Content-Length").flatMap(Int.init) {
            while buffer.count < length {
                guard try fill() else { throw RawHTTPError(description: "connection closed after \(buffer.count) of \(length) body bytes") }
            }
            response.body = Array(buffer.prefix(length))
            buffer.removeFirst(length)
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            response.body = try readChunkedBody()
        } else {
            while try fill() {}
            response.body = buffer
            buffer = []
        }
        return response
    }

    /// How a chunked body read piece by piece ended.
    enum StreamEnd: Equatable { case complete, closed, reset }

    /// A streamed answer: the head, then each chunk with when it arrived, until the last chunk
    /// (`complete`), the server closing without it (`closed`), or a reset (`reset`).
    func readStream() throws -> (response: RawResponse, chunks: [(bytes: [UInt8], at: ContinuousClock.Instant)], end: StreamEnd) {
        let response = try readResponse(head: true)
        var chunks: [(bytes: [UInt8], at: ContinuousClock.Instant)] = []
        let end = try readChunks { chunks.append(($0, ContinuousClock.now)) }
        return (response, chunks, end)
    }

    /// Each chunk of a chunked body whose head was read already, as it arrives, then how it ended.
    private func readChunks(_ each: ([UInt8]) -> Void) throws -> StreamEnd {
        do {
            while let chunk = try nextChunk() { each(chunk) }
            return .complete
        } catch let error as RawHTTPError where error.description.contains("Connection reset") {
            return .reset
        } catch let error as RawHTTPError where error.description.hasPrefix("connection closed") {
            return .closed
        }
    }

    /// The chunks of a chunked body whose head was read already, and how it ended.
    func readStreamBody() throws -> (chunks: [[UInt8]], end: StreamEnd) {
        var chunks: [[UInt8]] = []
        let end = try readChunks { chunks.append($0) }
        return (chunks, end)
    }

    private func readChunkedBody() throws -> [UInt8] {
        var body: [UInt8] = []
        while let chunk = try nextChunk() { body.append(contentsOf: chunk) }
        return body
    }

    /// The next chunk of a chunked body; nil after the last one (its trailer read).
    private func nextChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";").first.map(String.init) ?? "", radix: 16) else {
            throw RawHTTPError(description: "bad chunk size \(sizeLine.debugDescription)")
        }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        while buffer.count < size + 2 {
            guard try fill() else { throw RawHTTPError(description: "connection closed inside a chunk") }
        }
        defer { buffer.removeFirst(size + 2) }
        return Array(buffer.prefix(size))
    }

    private func readLine() throws -> String {
        let crlf: [UInt8] = [13, 10]
        while true {
            if let index = firstIndex(of: crlf) {
                let line = String(decoding: buffer[..<index], as: UTF8.self)
                buffer.removeSubrange(..<(index + 2))
                return line
            }
            guard try fill() else { throw RawHTTPError(description: "connection closed inside a line") }
        }
    }

    /// True when the server closes the connection (reads until end of stream, dropping bytes),
    /// false when the connection is still open at the timeout.
    func waitForClose() throws -> Bool {
        buffer = []
        do {
            while try fill() { buffer = [] }
            return true
        } catch let error as RawHTTPError where error.description.hasPrefix("timed out") {
            return false
        } catch {
            // A reset is a close too.
            return true
        }
    }

    /// Everything the server sends until it closes (what is buffered included); nil when the
    /// connection is still open at the timeout. After one answer, more bytes are a second answer.
    func readToEnd() throws -> [UInt8]? {
        do {
            while try fill() {}
        } catch let error as RawHTTPError where error.description.hasPrefix("timed out") {
            return nil
        } catch {
            // A reset ends the stream too.
        }
        defer { buffer = [] }
        return buffer
    }

    private func firstIndex(of pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for start in 0...(buffer.count - pattern.count) where buffer[start] == pattern[0] {
            if Array(buffer[start..<(start + pattern.count)]) == pattern { return start }
        }
        return nil
    }
}

extension RawConnection {
    /// The bytes of one request with `Host` and, when there is a body and no framing header, `Content-Length`.
    static func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty && !headers.contains(where: { $0.0.lowercased() == "content-length" || $0.0.lowercased() == "transfer-encoding" })
        {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// Opens a connection, sends one request and reads the response.
    static func exchange(port: Int, _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws
        -> RawResponse
    {
        let connection = try RawConnection(port: port)
        try connection.send(request(method, target, headers: headers, body: body))
        return try connection.readResponse(head: method == "HEAD")
    }
}

/// send(2) without SIGPIPE when the server has already closed.
private func socketSend(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        send(fd, pointer, count, Int32(MSG_NOSIGNAL))
    #else
        send(fd, pointer, count, 0)
    #endif
}

private func closeDescriptor(_ fd: Int32) -> Int32 {
    close(fd)
}
