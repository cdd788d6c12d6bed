#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CMicroHTTPD
import MockdCore
import MockdLock
import Synchronization

/// Reading one request through libmicrohttpd's calls of the access handler: the head (decided
/// once: `RequestHead`), the body (held as far as something reads it), then the `MockRequest`
/// the core resolves; when resumed, what was left to do.
extension HTTPServer {
    func handle(
        connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>, state: RequestState
    ) -> MHD_Result {
        switch state.phase {
        case .new:
            state.phase = .receiving
            return readHead(connection, url: url, method: method, version: version, state: state)
        case .receiving:
            guard uploadDataSize.pointee == 0 else {
                receive(uploadData, count: uploadDataSize.pointee, connection: connection, state: state)
                uploadDataSize.pointee = 0
                return .YES
            }
            return bodyComplete(connection, url: url, state: state)
        case .parked:
            // Resumed: carry out what the timer, the upstream call or shutdown left.
            guard let pending = state.pending.withLock({ $0 }) else { return .NO }
            return execute(
                pending.execution, for: pending.request, serving: pending.serving, admin: pending.admin,
                connection: connection, state: state)
        case .answered:
            return .YES
        }
    }

    /// The handler's first call: headers only. Refuse here (framing 400/501, 413); answer anything
    /// else on a later call, or libmicrohttpd closes the connection after the response.
    private func readHead(
        _ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
        version: UnsafePointer<CChar>?, state: RequestState
    ) -> MHD_Result {
        // The head-timeout tick closed this connection as the head completed: too late.
        guard connections.headComplete(connection, now: state.startNanoseconds) else { return .NO }
        let methodName = Self.method(method)
        if let reason = state.target.percentEncodingError {
            return refuse(connection, method: methodName, url: url, state: state, status: 400, reason: reason)
        }
        var headers = Self.headers(of: connection)
        if let sessionPort = state.sessionPort {
            // On a session's port the request is that session's, whatever the app sent.
            headers.removeAll { HTTPHeader.namesEqual($0.name, "X-Mock-Session") }
            headers.append(sessionPort.header)
        }
        let framing = RequestFraming.Head(headers)
        // libmicrohttpd 0.9.75 lets these through; 0.9.77 and 1.0 refuse most of them themselves
        // (`MHD_OPTION_CLIENT_DISCIPLINE_LVL`). Kept after upgrading: cheap, and it says why in JSON.
        let versionText = version.map { strcmp($0, "HTTP/1.1") == 0 ? "HTTP/1.1" : String(cString: $0) } ?? "HTTP/1.0"
        switch RequestFraming.check(method: methodName, version: versionText, head: framing) {
        case .accept:
            break
        case .refuse(let status, let reason):
            return refuse(connection, method: methodName, url: url, state: state, status: status, reason: reason)
        }
        let hasBody = framing.hasBody
        let declaredLength = framing.declaredLength
        if let bytes = declaredLength, bytes > configuration.maxBodyBytes {
            return refuse(
                connection, method: methodName, url: url, state: state, status: 413,
                reason: "the body is \(bytes) bytes; the limit is \(configuration.maxBodyBytes) (--max-body-bytes)")
        }
        let path = String(validatingCString: url).map(Self.originForm)
        let serving = current.withLock { $0 }
        let isAdmin = configuration.adminEnabled && path.map(AdminAPI.isAdminPath) == true
        let keepLimit = bodyKeepLimit(isAdmin: isAdmin, serving: serving, hasBody: hasBody)
        // Consumed: the head's parts move into the reader, not copied (a retain and a release each).
        state.reader = RequestReader(
            head: RequestHead(
                method: consume methodName, path: consume path, headers: consume headers, isAdmin: isAdmin, hasBody: hasBody,
                declaredLength: declaredLength, serving: consume serving),
            keepLimit: keepLimit)
        if let bytes = declaredLength {
            // When it does not fit, the body is read and dropped, then answered 503: a client
            // that sends its whole body before reading (most do) gets the 503, not a reset.
            reserveDeclaredBody(length: bytes, state: state)
        }
        if hasBody {
            state.reader?.watched = connections.bodyStarted(
                connection, declaredLength: declaredLength, now: RequestState.monotonicNanoseconds())
        }
        return .YES
    }

    /// One chunk of the body: counted (for the slow-body rule and the limit), held as far as needed.
    private func receive(_ chunk: UnsafePointer<CChar>?, count: Int, connection: OpaquePointer, state: RequestState) {
        connections.bodyReceived(connection, bytes: count)
        // Two fields read in place, not the reader copied: a copy alive during `hold` would share
        // the body's buffer, and every chunk's append would then copy the whole body (a 9.5 MB
        // upload in 8 KB chunks: a thousand copies, each a second buffer the budget never saw).
        guard let chunk, let seen = state.reader?.bytesSeen, state.reader?.tooLarge == false else { return }
        if seen + count > configuration.maxBodyBytes {
            state.reader?.tooLarge = true
            state.reader?.body = []
        } else {
            hold(chunk, count: count, state: state)
        }
    }

    /// The body is in: the refusals it earned, else the request goes to the core.
    private func bodyComplete(_ connection: OpaquePointer, url: UnsafePointer<CChar>, state: RequestState) -> MHD_Result {
        // Moved out for good: nothing reads it after this call.
        guard let reader = state.takeReader() else { return .NO }
        // The slow-body tick closed this connection as its body completed: too late.
        if reader.watched {
            guard connections.bodyDone(connection, now: RequestState.monotonicNanoseconds()) else {
                // Put back: the completion journals the request as the slow body it was.
                state.reader = reader
                return .NO
            }
        }
        if reader.tooLarge {
            return refuse(
                connection, method: reader.head.method, url: url, state: state, status: 413,
                reason: "the chunked body exceeded \(configuration.maxBodyBytes) bytes (--max-body-bytes)")
        }
        if reader.overBudget {
            let request = MockRequest(method: reader.head.method, path: reader.head.path ?? String(cString: url))
            return execute(
                .respond(Reply(.built(bodyBudgetRefusal), scenario: "")), for: request, serving: nil,
                connection: connection, state: state)
        }
        guard let path = reader.head.path else {
            return refuse(
                connection, method: reader.head.method, url: url, state: state, status: 400,
                reason: "the path is not UTF-8 once percent-decoded")
        }
        guard path.utf8.first == UInt8(ascii: "/") else {
            return refuse(
                connection, method: reader.head.method, url: url, state: state, status: 400,
                reason: "the request target must be a path starting with '/' (or an absolute URL)")
        }
        let serving = reader.head.serving
        let request = (consume reader).request(
            path: path, target: state.target,
            query: state.target.rawQuery.isEmpty ? [] : Self.queryArguments(of: connection))
        return execute(
            .resolved(serving.resolver.resolve(request, onSessionPort: state.sessionPort != nil)), for: request, serving: serving,
            connection: connection, state: state)
    }

    /// Answers a request that cannot be read (framing, limits) at once, with `Connection: close`.
    private func refuse(
        _ connection: OpaquePointer, method: String, url: UnsafePointer<CChar>,
        state: RequestState, status: Int, reason: String
    ) -> MHD_Result {
        let request = MockRequest(
            method: method, path: String(decoding: UnsafeRawBufferPointer(start: url, count: strlen(url)), as: UTF8.self))
        return execute(.refuse(status: status, reason: reason), for: request, serving: nil, connection: connection, state: state)
    }

    /// `GET http://host:port/path` (absolute form, as proxies send it) → `/path`.
    static func originForm(_ path: String) -> String {
        guard path.utf8.first == UInt8(ascii: "h"), path.hasPrefix("http://") || path.hasPrefix("https://") else { return path }
        let afterScheme = path.drop { $0 != "/" }.dropFirst(2)
        guard let slash = afterScheme.firstIndex(of: "/") else { return "/" }
        return String(afterScheme[slash...])
    }

    /// The request's method; the common ones as literals, without decoding the C string.
    static func method(_ raw: UnsafePointer<CChar>) -> String {
        // Byte by byte, stopping at the first mismatch: never past the terminating NUL.
        func matches(_ name: StaticString) -> Bool {
            let count = name.utf8CodeUnitCount
            for index in 0..<count where UInt8(bitPattern: raw[index]) != name.utf8Start[index] { return false }
            return raw[count] == 0
        }
        if matches("GET") { return "GET" }
        if matches("POST") { return "POST" }
        if matches("HEAD") { return "HEAD" }
        return String(cString: raw)
    }

    /// Request headers, in order. Counted first, so the array is allocated once.
    static func headers(of connection: OpaquePointer) -> [HTTPHeader] {
        var headers: [HTTPHeader] = []
        headers.reserveCapacity(Int(MHD_get_connection_values_n(connection, .HEADER_KIND, nil, nil)))
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, collectValue, UnsafeMutableRawPointer(pointer))
        }
        return headers
    }

    /// Decoded query arguments, in order (a name with no `=` has a nil value).
    static func queryArguments(of connection: OpaquePointer) -> [(name: String, value: String?)] {
        var arguments: [(name: String, value: String?)] = []
        withUnsafeMutablePointer(to: &arguments) { pointer in
            _ = MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, collectArgument, UnsafeMutableRawPointer(pointer))
        }
        return arguments
    }
}
