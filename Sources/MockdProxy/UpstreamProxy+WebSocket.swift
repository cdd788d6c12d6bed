#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials  // URL's host and port
#else
    import Foundation
#endif
import CCurl
import Dispatch
import Synchronization
package import MockdCore
package import MockdSystem

/// Relaying a WebSocket upgrade nothing here answers: the upgrade request goes upstream over a
/// connection libcurl opens (`CURLOPT_CONNECT_ONLY`: TCP, and TLS for an https upstream), and
/// the upstream's answer decides what the app gets (`WebSocketRelay.answer`). After a 101 the
/// connection is handed over as a `ByteStream` that the server's WebSocket connection drives.
///
/// libcurl has no WebSocket client in the releases mockd links (7.88), so the upgrade's head is
/// written and read here: one request line, the app's headers, and the answer's status line and
/// headers, all bounded.
extension UpstreamProxy {
    /// Opens the relay of `relay` and gives `then` what to carry out, once, on a dispatch worker:
    /// the 101 with the upstream's stream, or the answer to send instead (the upstream's own
    /// refusal, or 502/504 JSON saying why there was none). The connect and the handshake wait on
    /// that worker, for at most `--proxy-timeout`.
    package func openWebSocket(
        _ relay: WebSocketRelay, for request: MockRequest, then: @escaping @Sendable (Resolution, (any ByteStream)?) -> Void
    ) {
        DispatchQueue.global().async { [self] in
            let started = ContinuousClock.now
            switch handshake(relay, request) {
            case .success(let answer):
                let note = "\(Self.milliseconds(ContinuousClock.now - started))ms"
                let headers = ForwardingRules.relayedResponseHeaders(answer.headers)
                let resolution = relay.answer(status: answer.status, headers: headers, body: answer.body, note: note)
                if case .upgrade = resolution { return then(resolution, answer.stream) }
                answer.stream.close()
                then(resolution, nil)
            case .failure(let failure):
                let outcome = failed(failure, request: request, after: ContinuousClock.now - started)
                then(.respond(Reply(.built(outcome.response), scenario: relay.scenario)), nil)
            }
        }
    }

    private struct UpgradeAnswer {
        var status: Int
        var headers: [HTTPHeader]
        var body: [UInt8]
        var stream: CurlStream
    }

    private func handshake(_ relay: WebSocketRelay, _ request: MockRequest) -> Result<UpgradeAnswer, ProxyFailure> {
        guard let library else { return .failure(unavailable ?? ProxyFailure(.failed, reason: "no HTTP client")) }
        let url: String
        switch upstreamURL(request) {
        case .success(let built): url = built
        case .failure(let failure): return .failure(failure)
        }
        let deadline = ContinuousClock.now + configuration.timeout
        let stream: CurlStream
        switch CurlStream.connect(url, library: library, timeout: configuration.timeout) {
        case .success(let connected): stream = connected
        case .failure(let failure): return .failure(failure)
        }
        let head = Self.upgradeHead(url: url, upstream: configuration.upstream.host ?? "", port: configuration.upstream.port, relay)
        if let failure = stream.writeAll(head, before: deadline, timeout: configuration.timeout) {
            stream.close()
            return .failure(failure)
        }
        switch stream.readAnswerHead(before: deadline, timeout: configuration.timeout) {
        case .success(let answer):
            return .success(UpgradeAnswer(status: answer.status, headers: answer.headers, body: answer.body, stream: stream))
        case .failure(let failure):
            stream.close()
            return .failure(failure)
        }
    }

    /// The upgrade request as it goes upstream: the target under the upstream's base path, the
    /// upstream's `Host`, and the app's headers as the relay keeps them, less those no forwarded
    /// request carries (its `Host`, mockd's `X-Mock-Session` and `X-Mock-Scenario`).
    static func upgradeHead(url: String, upstream host: String, port: Int?, _ relay: WebSocketRelay) -> [UInt8] {
        // `scheme://authority/path?query`: the target starts at the first "/" after the authority.
        let afterScheme = url.split(separator: "://", maxSplits: 1).last ?? url[...]
        let target = afterScheme.firstIndex(of: "/").map { String(afterScheme[$0...]) } ?? "/"
        var text = "GET \(target) HTTP/1.1\r\nHost: \(host.contains(":") ? "[\(host)]" : host)\(port.map { ":\($0)" } ?? "")\r\n"
        for header in relay.headers where !ForwardingRules.notForwarded.contains(header.name.lowercased()) {
            text += "\(header.name): \(header.value)\r\n"
        }
        return Array((text + "\r\n").utf8)
    }
}

/// An upstream connection libcurl opened (`CURLOPT_CONNECT_ONLY`), read and written with
/// curl_easy_recv/send, which never wait. `@unchecked`: after the handshake it is used only on
/// the relaying connection's serial queue; `close` is idempotent under a lock.
final class CurlStream: ByteStream, @unchecked Sendable {
    let fd: Int32
    private let library: CurlLibrary
    private let easy: UnsafeMutableRawPointer
    /// Bytes read past the answer's head: the upstream's first frames, given before any read.
    private var leftover: ArraySlice<UInt8> = []
    private let closed = Mutex(false)

    private init(library: CurlLibrary, easy: UnsafeMutableRawPointer, fd: Int32) {
        self.library = library
        self.easy = easy
        self.fd = fd
    }

    deinit { close() }

    static func connect(_ url: String, library: CurlLibrary, timeout: Duration) -> Result<CurlStream, ProxyFailure> {
        let api = library.api
        guard let easy = ccurl_easy_init(api) else { return .failure(ProxyFailure(.failed, reason: "curl_easy_init failed")) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE))
        let code = errorBuffer.withUnsafeMutableBufferPointer { buffer -> CURLcode in
            _ = url.withCString { ccurl_setopt_ptr(api, easy, CURLOPT_URL, $0) }
            _ = ccurl_setopt_long(api, easy, CURLOPT_CONNECT_ONLY, 1)
            _ = ccurl_setopt_long(api, easy, CURLOPT_NOSIGNAL, 1)
            _ = ccurl_setopt_long(api, easy, CURLOPT_CONNECTTIMEOUT_MS, UpstreamProxy.timeoutMilliseconds(timeout))
            _ = ccurl_setopt_ptr(api, easy, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            let code = ccurl_easy_perform(api, easy)
            _ = ccurl_setopt_ptr(api, easy, CURLOPT_ERRORBUFFER, nil)
            return code
        }
        guard code == CURLE_OK else {
            let words = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            ccurl_easy_cleanup(api, easy)
            let reason = words.isEmpty ? String(cString: ccurl_easy_strerror(api, code)) : words
            return .failure(UpstreamProxy.classify(code, reason: reason, timeout: timeout))
        }
        var socket: curl_socket_t = -1
        guard ccurl_getinfo_socket(api, easy, &socket) == CURLE_OK, socket >= 0 else {
            ccurl_easy_cleanup(api, easy)
            return .failure(ProxyFailure(.failed, reason: "libcurl gave no socket for the upstream connection"))
        }
        return .success(CurlStream(library: library, easy: easy, fd: Int32(socket)))
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> ConnectionSocket.Transfer {
        if !leftover.isEmpty {
            let taken = min(count, leftover.count)
            leftover.prefix(taken).withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: taken) }
            leftover = leftover.dropFirst(taken)
            return .done(taken)
        }
        var received = 0
        switch ccurl_easy_recv(library.api, easy, buffer, count, &received) {
        case CURLE_OK: return received > 0 ? .done(received) : .ended
        case CURLE_AGAIN: return .wouldBlock
        case let code: return .failed(Int32(bitPattern: code.rawValue))
        }
    }

    func write(from buffer: UnsafeRawPointer, count: Int) -> ConnectionSocket.Transfer {
        var sent = 0
        switch ccurl_easy_send(library.api, easy, buffer, count, &sent) {
        case CURLE_OK: return .done(sent)
        case CURLE_AGAIN: return .wouldBlock
        case let code: return .failed(Int32(bitPattern: code.rawValue))
        }
    }

    func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if first { ccurl_easy_cleanup(library.api, easy) }
    }

    // MARK: - The handshake, before the stream is handed over

    /// Writes all of `bytes`, waiting for the socket until `deadline`; nil when sent.
    func writeAll(_ bytes: [UInt8], before deadline: ContinuousClock.Instant, timeout: Duration) -> ProxyFailure? {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { write(from: $0.baseAddress! + offset, count: bytes.count - offset) }
            switch result {
            case .done(let count): offset += count
            case .wouldBlock:
                if !wait(for: Int16(POLLOUT), before: deadline) { return Self.timedOut(timeout) }
            case .ended, .failed:
                return ProxyFailure(.unreachable, reason: "the upstream closed the connection while the upgrade was sent")
            }
        }
        return nil
    }

    struct AnswerHead {
        var status: Int
        var headers: [HTTPHeader]
        var body: [UInt8]
    }

    /// Reads the answer's status line and headers (at most 64 KiB), and for an answer other than
    /// 101 its body as far as `Content-Length` says (at most 1 MiB). What follows a 101's head
    /// stays for the first reads.
    func readAnswerHead(before deadline: ContinuousClock.Instant, timeout: Duration) -> Result<AnswerHead, ProxyFailure> {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        func more() -> ProxyFailure? {
            while true {
                let result = buffer.withUnsafeMutableBytes { read(into: $0.baseAddress!, count: $0.count) }
                switch result {
                case .done(let count):
                    received += buffer.prefix(count)
                    return nil
                case .wouldBlock:
                    if !wait(for: Int16(POLLIN), before: deadline) { return Self.timedOut(timeout) }
                case .ended, .failed:
                    return ProxyFailure(.unreachable, reason: "the upstream closed the connection before answering the upgrade")
                }
            }
        }
        var headEnd: Int?
        while headEnd == nil {
            if let failure = more() { return .failure(failure) }
            headEnd = Self.endOfHead(received)
            if headEnd == nil, received.count > 64 * 1024 {
                return .failure(ProxyFailure(.failed, reason: "the upstream's answer to the upgrade has a head over 64 KiB"))
            }
        }
        guard var head = Self.parseHead(received[..<headEnd!]) else {
            return .failure(ProxyFailure(.failed, reason: "the upstream's answer to the upgrade is not HTTP/1.1"))
        }
        var rest = Array(received[headEnd!...])
        if head.status == 101 {
            leftover = rest[...]
            return .success(head)
        }
        let length = head.headers.first(named: "Content-Length").flatMap { Int(Substring($0).trimming(.whitespace)) } ?? rest.count
        guard length <= 1024 * 1024 else {
            return .failure(ProxyFailure(.tooLarge, reason: "the upstream's refusal of the upgrade has a body over 1 MiB"))
        }
        while rest.count < length {
            let before = received.count
            if more() != nil { break }  // what came is what is relayed
            rest += received[before...]
        }
        head.body = Array(rest.prefix(length))
        return .success(head)
    }

    /// Waits until the socket is ready for `events` or `deadline`; false at the deadline.
    private func wait(for events: Int16, before deadline: ContinuousClock.Instant) -> Bool {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return false }
        var descriptor = pollfd(fd: fd, events: events, revents: 0)
        let milliseconds = Int32(clamping: max(1, UpstreamProxy.timeoutMilliseconds(left)))
        return poll(&descriptor, 1, milliseconds) != 0
    }

    private static func timedOut(_ timeout: Duration) -> ProxyFailure {
        ProxyFailure(.timedOut, reason: "no answer to the WebSocket upgrade within \(UpstreamProxy.describe(timeout)) (--proxy-timeout)")
    }

    /// The index after the blank line that ends an HTTP head, or nil.
    static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count where bytes[index] == 0x0A {
            if bytes[index - 1] == 0x0D, bytes[index - 2] == 0x0A, bytes[index - 3] == 0x0D { return index + 1 }
        }
        return nil
    }

    /// `HTTP/1.1 101 Switching Protocols` and its header lines; nil when it is not an HTTP answer.
    static func parseHead(_ bytes: ArraySlice<UInt8>) -> AnswerHead? {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: true)
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.") else { return nil }
        let words = statusLine.split(separator: " ", maxSplits: 2)
        guard words.count >= 2, let status = Int(words[1]), (100...599).contains(status) else { return nil }
        var headers: [HTTPHeader] = []
        for line in lines.dropFirst() {
            guard let field = ForwardingRules.headerField(line) else { return nil }
            headers.append(field)
        }
        return AnswerHead(status: status, headers: headers, body: [])
    }
}
