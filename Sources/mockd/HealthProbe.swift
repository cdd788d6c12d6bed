#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import MockdSystem

/// A minimal HTTP/1.0 call of the admin API over a plain socket (`GET /__mockd/health`, and
/// `POST /__mockd/push` for `mockd push`): a healthcheck runs every few seconds in a container
/// and should not need an HTTP client stack.
struct HealthProbe {
    let host: String
    let port: Int
    let timeoutSeconds: Int
    let token: String?

    struct Failure: Error {
        let message: String
    }

    func run(_ method: String = "GET", _ path: String = "/__mockd/health", body: [UInt8] = []) throws -> (status: Int, body: String) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SystemCalls.streamSocketType
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw Failure(message: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(first) }
        let fd = socket(first.pointee.ai_family, SystemCalls.streamSocketType, 0)
        guard fd >= 0 else { throw Failure(message: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var time = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            throw Failure(message: "nothing answers on \(host):\(port) (\(String(cString: strerror(errno))))")
        }
        var request = "\(method) \(path) HTTP/1.0\r\nHost: \(host):\(port)\r\n"
        if let token { request += "Authorization: Bearer \(token)\r\n" }
        if !body.isEmpty { request += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8) + body
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count else {
            throw Failure(message: "cannot send to \(host):\(port)")
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 { throw Failure(message: "no answer from \(host):\(port) within \(timeoutSeconds) s") }
            if count == 0 { break }
            response.append(contentsOf: buffer.prefix(count))
        }
        let text = String(decoding: response, as: UTF8.self)
        let statusLine = text.prefix { $0 != "\r" && $0 != "\n" }
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw Failure(message: "\(host):\(port) did not answer HTTP")
        }
        // The body follows the first empty line; searched in the bytes, where "\r\n" is two elements.
        let body = response.firstRange(of: Array("\r\n\r\n".utf8)).map { String(decoding: response[$0.upperBound...], as: UTF8.self) } ?? ""
        return (status, body)
    }

    /// Where to ask a mockd listening on `host`: its wildcard and `localhost` mean loopback.
    static func address(of host: String) -> String {
        switch host {
        case "0.0.0.0", "localhost": "127.0.0.1"
        case "::": "::1"
        default: host
        }
    }

    /// Asks until mockd answers 200, for up to `seconds` (0: once), every 100 ms: a mockd just
    /// started may not listen yet (refused) or not have loaded (503). Plain polling: a process
    /// outside cannot be told. `gaveUp` is asked before each try and ends the wait with its
    /// reason (the process waited for has exited). The body of the 200, else the last problem.
    func waitUntilHealthy(seconds: Int, gaveUp: () -> String? = { nil }) -> Result<String, Failure> {
        let deadline = ContinuousClock.now + .seconds(max(0, seconds))
        while true {
            if let reason = gaveUp() { return .failure(Failure(message: reason)) }
            let problem: String
            do {
                let answer = try run()
                if answer.status == 200 { return .success(answer.body) }
                problem = "\(host):\(port) answered HTTP \(answer.status)"
            } catch let error as Failure {
                problem = error.message
            } catch {
                problem = "\(error)"
            }
            guard ContinuousClock.now < deadline else { return .failure(Failure(message: problem)) }
            var pause = timespec(tv_sec: 0, tv_nsec: 100_000_000)
            nanosleep(&pause, nil)
        }
    }
}
