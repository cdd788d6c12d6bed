import CMicroHTTPD
import MockdCore

/// Owns one libmicrohttpd response object.
///
/// Safe to share across threads: libmicrohttpd reference-counts a response under its own
/// mutex when it is queued, and mockd never changes one after creating it.
final class MHDResponse: Sendable {
    nonisolated(unsafe) let raw: OpaquePointer

    /// A response reused for every request a prepared response answers. The body is not
    /// copied: libmicrohttpd points at `ResponseBody`'s memory, which stays retained until
    /// libmicrohttpd's last use of the response (see `releaseResponseBody`).
    init?(prepared: PreparedResponse) {
        let body = prepared.body
        let context = Unmanaged.passRetained(body).toOpaque()
        guard let raw = MHD_create_response_from_buffer_with_free_callback_cls(
            body.count, UnsafeMutableRawPointer(mutating: body.bytes.baseAddress), releaseResponseBody, context)
        else {
            Unmanaged<ResponseBody>.fromOpaque(context).release()
            return nil
        }
        self.raw = raw
        Self.add(prepared.headers, to: raw)
    }

    /// A response for one request; libmicrohttpd copies the bytes.
    init?(built: BuiltResponse) {
        let created = built.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let raw = created else { return nil }
        self.raw = raw
        Self.add(built.headers, to: raw)
        _ = MHD_add_response_header(raw, "X-Mockd-Source", built.source)
    }

    /// An empty response with `Connection: close`, for refusals.
    static func add(_ headers: [HTTPHeader], to raw: OpaquePointer) {
        for header in headers {
            _ = MHD_add_response_header(raw, header.name, header.value)
        }
    }

    deinit {
        // Drops mockd's reference; requests still sending it keep theirs.
        MHD_destroy_response(raw)
    }
}

/// libmicrohttpd's "free" callback for prepared bodies: drops the retain taken in `MHDResponse.init`.
private func releaseResponseBody(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<ResponseBody>.fromOpaque(context).release()
}
