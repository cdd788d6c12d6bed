#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CMicroHTTPD
import MockdCore

/// One request's way through libmicrohttpd's calls of the access handler: framing checks on
/// the headers, the body, then a `MockRequest` for the core; when resumed, what was left to do.
extension HTTPServer {
    func handle(connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>?,
                uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>, state: RequestState) -> MHD_Result {
        switch state.phase {
        case .new:
            // First call: headers only. Refuse here (framing 400/501, 413); answer anything else on a later
            // call, or libmicrohttpd closes the connection after the response.
            state.phase = .receiving
            // The head-timeout tick closed this connection as the head completed: too late.
            guard connections.headComplete(connection, now: state.startNanoseconds) else { return .NO }
            if state.badPercentEncoding {
                return refuse(connection, method: method, url: url, state: state, status: 400,
                              reason: RequestState.percentEncodingReason(url))
            }
            let (refusal, head) = checkHead(connection: connection, method: method, version: version, state: state)
            if let refusal {
                return refuse(connection, method: method, url: url, state: state, status: refusal.status, reason: refusal.reason)
            }
            // The framing check's pass over the headers decides what to hold, whether to watch a body's rate, and its declared length.
            let hasBody = head.hasBody
            state.bodyKeepLimit = bodyKeepLimit(url: url, hasBody: hasBody)
            if let bytes = head.declaredLength {
                if bytes > configuration.maxBodyBytes {
                    return refuse(connection, method: method, url: url, state: state, status: 413,
                                  reason: "the body is \(bytes) bytes; the limit is \(configuration.maxBodyBytes) (--max-body-bytes)")
                }
                // When it does not fit, the body is read and dropped, then answered 503: a client
                // that sends its whole body before reading (most do) gets the 503, not a reset.
                reserveDeclaredBody(length: bytes, state: state)
            }
            if hasBody { state.bodyWatched = connections.bodyStarted(connection, now: RequestState.monotonicNanoseconds()) }
            return .YES
        case .receiving:
            let size = uploadDataSize.pointee
            if size != 0 {
                connections.bodyReceived(connection, bytes: size)
                if !state.bodyTooLarge, let uploadData {
                    if state.bodyBytesSeen + size > configuration.maxBodyBytes {
                        state.bodyTooLarge = true
                        state.body = []
                    } else {
                        receive(uploadData, count: size, state: state)
                    }
                }
                uploadDataSize.pointee = 0
                return .YES
            }
            // The slow-body tick closed this connection as its body completed: too late.
            if state.bodyWatched {
                guard connections.bodyDone(connection, now: RequestState.monotonicNanoseconds()) else { return .NO }
            }
            if state.bodyTooLarge {
                return refuse(connection, method: method, url: url, state: state, status: 413,
                              reason: "the chunked body exceeded \(configuration.maxBodyBytes) bytes (--max-body-bytes)")
            }
            if state.overBudget {
                let request = MockRequest(method: Self.method(method), path: String(cString: url))
                return carryOut(.send(Reply(.built(bodyBudgetRefusal), scenario: ""), fault: nil), for: request, serving: nil,
                                connection: connection, state: state)
            }
            guard var path = String(validatingCString: url) else {
                return refuse(connection, method: method, url: url, state: state, status: 400,
                              reason: "the path is not UTF-8 once percent-decoded")
            }
            path = Self.originForm(path)
            guard path.utf8.first == UInt8(ascii: "/") else {
                return refuse(connection, method: method, url: url, state: state, status: 400,
                              reason: "the request target must be a path starting with '/' (or an absolute URL)")
            }
            let request = MockRequest(method: Self.method(method), path: path,
                                      query: state.rawQuery.isEmpty ? [] : Self.queryArguments(of: connection), rawQuery: state.rawQuery,
                                      headers: state.headers ?? Self.headers(of: connection), body: state.body,
                                      rawPath: state.rawPath.map(Self.originForm))
            let serving = current.withLock { $0 }
            return execute(serving.resolver.resolve(request), for: request, serving: serving, connection: connection, state: state)
        case .parked:
            // Resumed: carry out what the timer, the upstream call or shutdown left.
            guard let pending = state.pending.withLock({ $0 }) else { return .NO }
            return carryOut(pending.outcome, for: pending.request, serving: pending.serving, connection: connection, state: state)
        case .answered:
            return .YES
        }
    }

    /// Answers a request that cannot be read (framing, limits) at once, with `Connection: close`.
    private func refuse(_ connection: OpaquePointer, method: UnsafePointer<CChar>, url: UnsafePointer<CChar>,
                        state: RequestState, status: Int, reason: String) -> MHD_Result {
        let request = MockRequest(method: String(cString: method), path: String(decoding: UnsafeRawBufferPointer(start: url, count: strlen(url)), as: UTF8.self))
        return carryOut(.refuse(status: status, reason: reason), for: request, serving: nil, connection: connection, state: state)
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
