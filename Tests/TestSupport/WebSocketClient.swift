import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A WebSocket client written for tests from RFC 6455 alone (it shares no code with wslay, which
/// the server frames with): a blocking TCP socket to 127.0.0.1, the opening handshake with any
/// headers, then frames built and read by hand, including the broken ones a real client never
/// sends (unmasked, invalid UTF-8, a ping between fragments).
///
/// Every call blocks: use it from `blocking { }`, never on the cooperative pool. Every read gives
/// up after `timeout` (SO_RCVTIMEO) and throws, so a server that never answers fails the test
/// instead of hanging it. One thread at a time uses a client (hence `@unchecked Sendable`: a
/// client may be made in one `blocking` call and used in the next).
package final class WebSocketClient: @unchecked Sendable {
    /// The server's answer to the upgrade request; `status` 101 when it took it.
    package private(set) var handshake = WebSocketHandshakeResponse(status: 0, headers: [], body: [])
    /// The `Sec-WebSocket-Key` sent.
    package let key: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var isClosed = false

    /// Connects to 127.0.0.1:`port`, sends `GET target` as an upgrade and reads the answer's head
    /// (and, when it is not 101, its body). `headers` are added as given; `version` nil leaves
    /// `Sec-WebSocket-Version` out; `upgrade` false sends a plain GET (no Upgrade, no Connection).
    /// `pipelined` goes in the same write as the request, before any answer (frames sent early).
    package init(
        port: Int, target: String, headers: [(String, String)] = [], subprotocols: [String] = [], version: String? = "13",
        key: String? = nil, upgrade: Bool = true, pipelined: [UInt8] = [], timeout: Duration = .seconds(30)
    ) throws {
        self.key = key ?? Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        fd = try Self.connect(port: port, timeout: timeout)
        var head = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        if upgrade { head += "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(self.key)\r\n" }
        if let version { head += "Sec-WebSocket-Version: \(version)\r\n" }
        if !subprotocols.isEmpty { head += "Sec-WebSocket-Protocol: \(subprotocols.joined(separator: ", "))\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        try sendRaw(Array(head.utf8) + pipelined)
        handshake = try readHandshake()
    }

    deinit { disconnect() }

    /// Closes the socket now, without a close frame (a client that vanishes).
    package func disconnect() {
        guard !isClosed else { return }
        isClosed = true
        _ = systemClose(fd)
    }

    // MARK: - Sending

    /// Sends one frame, masked as a client must unless `masked` is false.
    package func send(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true, masked: Bool = true) throws {
        try sendRaw(Self.frame(opcode, payload, fin: fin, masked: masked))
    }

    package func send(text: String) throws { try send(.text, Array(text.utf8)) }
    package func send(binary: [UInt8]) throws { try send(.binary, binary) }
    package func ping(_ payload: [UInt8] = []) throws { try send(.ping, payload) }

    /// Sends a close frame with `code` and `reason` (nil code: an empty close frame).
    package func sendClose(code: UInt16? = 1000, reason: String = "") throws {
        var payload: [UInt8] = []
        if let code { payload = [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8) }
        try send(.close, payload)
    }

    /// Exact bytes, for what `send` will not build.
    package func sendRaw(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { systemSend(fd, $0.baseAddress, $0.count) }
            guard sent > 0 else { throw WebSocketClientError("send: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// The bytes of one frame (RFC 6455, 5.2): FIN, opcode, the length in 7, 16 or 64 bits, then
    /// the mask key and the masked payload (or the payload as is when `masked` is false).
    package static func frame(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true, masked: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode.rawValue]
        let maskBit: UInt8 = masked ? 0x80 : 0
        switch payload.count {
        case 0..<126:
            bytes.append(maskBit | UInt8(payload.count))
        case 126...0xFFFF:
            bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: UInt64(payload.count) >> UInt64(shift)))
            }
        }
        guard masked else { return bytes + payload }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        bytes += mask
        bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return bytes
    }

    // MARK: - Reading

    /// The next thing the server does: a frame, or the end of the stream (a TCP close, or a
    /// reset). Throws when nothing comes before the timeout.
    package func next() throws -> WebSocketEvent {
        do {
            guard try fill(atLeast: 2) else { return .ended(.closed) }
            let first = buffer[0]
            let second = buffer[1]
            var length = Int(second & 0x7F)
            var headerLength = 2
            if length == 126 {
                headerLength = 4
                guard try fill(atLeast: headerLength) else { return .ended(.closed) }
                length = Int(buffer[2]) << 8 | Int(buffer[3])
            } else if length == 127 {
                headerLength = 10
                guard try fill(atLeast: headerLength) else { return .ended(.closed) }
                length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            }
            let masked = second & 0x80 != 0
            if masked { headerLength += 4 }
            guard try fill(atLeast: headerLength + length) else { return .ended(.closed) }
            var payload = Array(buffer[headerLength..<(headerLength + length)])
            if masked {
                let mask = Array(buffer[(headerLength - 4)..<headerLength])
                payload = payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
            }
            buffer.removeFirst(headerLength + length)
            return .frame(
                WebSocketFrame(
                    fin: first & 0x80 != 0, reserved: (first >> 4) & 0x7, opcode: first & 0x0F, masked: masked, payload: payload,
                    at: .now))
        } catch let error as WebSocketClientError where error.isReset {
            return .ended(.reset)
        }
    }

    /// The next frame; throws when the stream ends instead.
    package func readFrame() throws -> WebSocketFrame {
        switch try next() {
        case .frame(let frame): return frame
        case .ended(let end): throw WebSocketClientError("the connection ended (\(end)) where a frame was expected")
        }
    }

    /// The next frame, which must be a whole text message.
    package func readText() throws -> String {
        let frame = try readFrame()
        guard frame.opcode == WebSocketOpcode.text.rawValue, frame.fin, let text = frame.text else {
            throw WebSocketClientError("expected a text message, got \(frame)")
        }
        return text
    }

    /// The next frame, which must be a close: its code (nil when it has none) and reason.
    package func readClose() throws -> (code: UInt16?, reason: String) {
        let frame = try readFrame()
        guard frame.opcode == WebSocketOpcode.close.rawValue else { throw WebSocketClientError("expected a close frame, got \(frame)") }
        return (frame.closeCode, frame.closeReason)
    }

    /// Reads until the server ends the stream, dropping what comes; how it ended.
    package func readToEnd() throws -> WebSocketEnd {
        while true {
            if case .ended(let end) = try next() { return end }
        }
    }

    /// The server's close, answered with the same code as RFC 6455 (5.5.1) asks, then the end of
    /// the stream, which the server must close next.
    package func closeHandshake() throws -> (code: UInt16?, reason: String, end: WebSocketEnd) {
        let (code, reason) = try readClose()
        try? sendClose(code: code)
        return (code, reason, try readToEnd())
    }

    /// Reads into the buffer until it holds `count` bytes; false when the stream ends first.
    private func fill(atLeast count: Int) throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while buffer.count < count {
            let read = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if read == 0 { return false }
            if read < 0 {
                let code = errno
                if code == EINTR { continue }
                throw WebSocketClientError(
                    code == EAGAIN || code == EWOULDBLOCK ? "timed out waiting for the server" : "recv: \(String(cString: strerror(code)))",
                    isReset: code == ECONNRESET)
            }
            buffer += chunk.prefix(read)
        }
        return true
    }

    /// The answer's head; the body too when there is one (a refusal). What follows a 101 stays
    /// buffered: the server's first frames may come with it.
    private func readHandshake() throws -> WebSocketHandshakeResponse {
        let separator = Array("\r\n\r\n".utf8)
        var end = 0
        while true {
            if let found = buffer.firstRange(of: separator) {
                end = found.lowerBound
                break
            }
            guard try fill(atLeast: buffer.count + 1) else {
                throw WebSocketClientError(
                    "connection closed before an answer's head: \(String(decoding: buffer, as: UTF8.self).debugDescription)")
            }
        }
        var lines = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        buffer.removeFirst(end + separator.count)
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw WebSocketClientError("not an HTTP status line: \(statusLine.debugDescription)")
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = WebSocketHandshakeResponse(status: status, headers: headers, body: [])
        if status != 101, let length = response.header("Content-Length").flatMap(Int.init) {
            guard try fill(atLeast: length) else { throw WebSocketClientError("connection closed inside the answer's body") }
            response.body = Array(buffer.prefix(length))
            buffer.removeFirst(length)
        }
        return response
    }

    private static func connect(port: Int, timeout: Duration) throws -> Int32 {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw WebSocketClientError("socket: \(String(cString: strerror(errno)))") }
        let seconds = timeout.components.seconds
        let microseconds = timeout.components.attoseconds / 1_000_000_000_000
        var time = timeval(tv_sec: .init(seconds), tv_usec: .init(microseconds))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            _ = systemClose(fd)
            throw WebSocketClientError("connect to 127.0.0.1:\(port): \(reason)")
        }
        return fd
    }
}

/// The opcodes of RFC 6455, 5.2.
package enum WebSocketOpcode: UInt8, Sendable {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA
}

/// One frame the server sent, as read off the wire.
package struct WebSocketFrame: Sendable, CustomStringConvertible {
    package let fin: Bool
    /// RSV1-3; 0 without extensions.
    package let reserved: UInt8
    /// Raw, so that an opcode no `WebSocketOpcode` names shows too.
    package let opcode: UInt8
    /// A server must not mask (RFC 6455, 5.1).
    package let masked: Bool
    /// Unmasked.
    package let payload: [UInt8]
    /// When the client read it (no earlier than it arrived).
    package let at: ContinuousClock.Instant

    /// The payload as UTF-8, nil when it is not.
    package var text: String? { String(validating: payload, as: UTF8.self) }
    /// A close frame's status code, nil when it has none.
    package var closeCode: UInt16? { payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil }
    /// A close frame's reason.
    package var closeReason: String { payload.count > 2 ? String(decoding: payload[2...], as: UTF8.self) : "" }

    package var description: String {
        let name = WebSocketOpcode(rawValue: opcode).map { "\($0)" } ?? "opcode \(opcode)"
        let shown =
            opcode == WebSocketOpcode.close.rawValue
            ? "\(closeCode.map(String.init) ?? "no code") \(closeReason.debugDescription)" : (text?.debugDescription ?? "\(payload)")
        return "\(name)\(fin ? "" : " (not final)")\(masked ? " (masked)" : ""): \(shown)"
    }
}

/// How the server ended the TCP stream.
package enum WebSocketEnd: Sendable, Equatable {
    /// A close (FIN): read returned 0.
    case closed
    /// A reset (RST).
    case reset
}

/// What the next read found.
package enum WebSocketEvent: Sendable {
    case frame(WebSocketFrame)
    case ended(WebSocketEnd)
}

/// The answer to the upgrade request.
package struct WebSocketHandshakeResponse: Sendable, CustomStringConvertible {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    /// The first value of `name`, compared case-insensitively.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    package var text: String { String(decoding: body, as: UTF8.self) }

    package var description: String {
        "HTTP \(status) " + headers.map { "\($0.name): \($0.value)" }.joined(separator: "; ") + " | " + text
    }
}

package struct WebSocketClientError: Error, CustomStringConvertible {
    package let description: String
    /// The server reset the connection.
    package let isReset: Bool

    package init(_ description: String, isReset: Bool = false) {
        self.description = description
        self.isReset = isReset
    }
}

/// send(2) without SIGPIPE when the server has already closed.
private func systemSend(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        send(fd, pointer, count, Int32(MSG_NOSIGNAL))
    #else
        send(fd, pointer, count, 0)
    #endif
}

private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}

private func systemClose(_ fd: Int32) -> Int32 {
    close(fd)
}

extension WebSocketClient {
    /// `init` on a thread of its own (see `blocking`), for an async test.
    package static func open(
        port: Int, target: String, headers: [(String, String)] = [], subprotocols: [String] = [], version: String? = "13",
        key: String? = nil, upgrade: Bool = true, pipelined: [UInt8] = [], timeout: Duration = .seconds(30)
    ) async throws -> WebSocketClient {
        try await blocking {
            try WebSocketClient(
                port: port, target: target, headers: headers, subprotocols: subprotocols, version: version, key: key, upgrade: upgrade,
                pipelined: pipelined, timeout: timeout)
        }
    }

    /// Runs `work` with the client on a thread of its own (see `blocking`): `try await client.run { try $0.readText() }`.
    package func run<T: Sendable>(_ work: @escaping @Sendable (WebSocketClient) throws -> T) async throws -> T {
        try await blocking { try work(self) }
    }
}
