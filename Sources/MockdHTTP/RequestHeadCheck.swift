#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CMicroHTTPD
import MockdCore

extension HTTPServer {
    /// Runs the core's framing rules (`RequestFraming`) on the head libmicrohttpd has parsed,
    /// on the handler's first call, before any body is read. Keeps the headers in `state`
    /// (they are read once per request either way). Returns the refusal to send, if any, and
    /// what the rules read from the headers (the body's facts come from the same pass).
    ///
    /// libmicrohttpd 0.9.75 lets these through; 0.9.77 and 1.0 refuse most of them themselves
    /// (`MHD_OPTION_CLIENT_DISCIPLINE_LVL`, not in 0.9.75). Keep this check after upgrading:
    /// it is cheap and says why in JSON.
    func checkHead(connection: OpaquePointer, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>?,
                   state: RequestState) -> (refusal: (status: Int, reason: String)?, head: RequestFraming.Head) {
        let headers = Self.headers(of: connection)
        state.headers = headers
        let head = RequestFraming.Head(headers)
        let versionText = version.map { strcmp($0, "HTTP/1.1") == 0 ? "HTTP/1.1" : String(cString: $0) } ?? "HTTP/1.0"
        switch RequestFraming.check(method: Self.method(method), version: versionText, head: head) {
        case .accept:
            return (nil, head)
        case .acceptThenClose:
            // Content-Length with Transfer-Encoding: libmicrohttpd already reads the body as
            // chunked; the connection must not carry another request (RFC 9112 §6.3).
            _ = cmhd_close_after_response(connection)
            return (nil, head)
        case .refuse(let status, let reason):
            return ((status, reason), head)
        }
    }
}
