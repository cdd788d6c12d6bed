#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import Logging
import MockdCore
import MockdLock
import Synchronization

/// One request as a test upstream received it.
struct ReceivedRequest: Sendable {
    var method: String
    /// The request target as sent: path and query, still percent-encoded.
    var target: String
    var headers: [HTTPHeader]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers.first(named: name) }
    func has(_ name: String) -> Bool { headers.contains { $0.name.lowercased() == name.lowercased() } }
}

/// A tiny HTTP/1.1 upstream on 127.0.0.1:<free port>: a thread accepts, reads one request,
/// stores it, writes a canned answer and closes — or, stalling, keeps the connection and never answers.
final class TestUpstream: Sendable {
    enum Mode: Sendable {
        case answer([UInt8])
        /// Writes at once, without reading a request, then closes.
        case answerWithoutReading([UInt8])
        case stall
    }

    let port: Int
    private let listener: Int32
    private let mode: Mode
    private let requests = Lock<[ReceivedRequest]>([])
    private let held = Lock<[Int32]>([])
    private let finished = DispatchSemaphore(value: 0)
    private let accepted = DispatchSemaphore(value: 0)

    /// `response` is sent as is: status line, headers, blank line, body.
    convenience init(response: String) throws {
        try self.init(mode: .answer(Array(response.utf8)))
    }

    init(mode: Mode) throws {
        self.mode = mode
        let (socket, port) = try Self.listen()
        self.listener = socket
        self.port = port
        let thread = Thread { [self] in
            acceptLoop()
            finished.signal()
        }
        thread.start()
    }

    var received: [ReceivedRequest] { requests.withLock { $0 } }

    /// Waits until the upstream accepted a connection; false after `within`. The wait blocks a
    /// thread of its own: not one of the cooperative pool's or GCD's few (as many as cores), which
    /// the other tests running in parallel need.
    func waitForConnection(within timeout: Duration) async -> Bool {
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        return await withCheckedContinuation { continuation in
            Thread { [accepted] in
                continuation.resume(returning: accepted.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success)
            }.start()
        }
    }

    /// Stops accepting, closes held connections, waits (at most 5 s) for the thread to end.
    func stop() {
        Glibc.shutdown(listener, Int32(SHUT_RDWR))
        _ = finished.wait(timeout: .now() + 5)
        close(listener)
        for descriptor in held.withLock({ held in
            defer { held = [] }; return held
        }) { close(descriptor) }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            accepted.signal()
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            switch mode {
            case .stall:
                held.withLock { $0.append(client) }
            case .answer(let response):
                if let request = Self.readRequest(client) { requests.withLock { $0.append(request) } }
                Self.writeAll(client, response)
                close(client)
            case .answerWithoutReading(let response):
                Self.writeAll(client, response)
                close(client)
            }
        }
    }

    /// Reads the head and a Content-Length body (no chunked: the proxy always knows the length).
    static func readRequest(_ socket: Int32) -> ReceivedRequest? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int? = nil
        while headEnd == nil {
            let count = read(socket, &chunk, chunk.count)
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            if buffer.count >= 4 {
                for index in 0...(buffer.count - 4) where Array(buffer[index..<index + 4]) == separator {
                    headEnd = index
                    break
                }
            }
        }
        let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [HTTPHeader] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(HTTPHeader(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var body = Array(buffer[(headEnd! + 4)...])
        let length = headers.first(named: "Content-Length").flatMap { Int($0) } ?? 0
        while body.count < length {
            let count = read(socket, &chunk, min(chunk.count, length - body.count))
            if count <= 0 { break }
            body.append(contentsOf: chunk[0..<count])
        }
        return ReceivedRequest(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }

    static func writeAll(_ socket: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return }
            offset += written
        }
    }

    /// A listening socket on 127.0.0.1 and the port the kernel chose.
    static func listen() throws -> (Int32, Int) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(socket, 64) == 0 else {
            close(socket)
            throw TestError("bind/listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A port nothing listens on: bound, then closed.
    static func closedPort() throws -> Int {
        let (socket, port) = try listen()
        close(socket)
        return port
    }
}

struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

let testLogger: Logger = {
    var logger = Logger(label: "mockd.proxy.tests")
    logger.logLevel = .critical
    return logger
}()
