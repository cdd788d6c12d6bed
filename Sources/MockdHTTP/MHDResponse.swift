import CMicroHTTPD
import MockdCore

/// Owns one libmicrohttpd response object.
///
/// Safe to share across threads: libmicrohttpd reference-counts a response under its own
/// mutex when it is queued, and mockd never changes one after creating it.
final class MHDResponse: Sendable {
    nonisolated(unsafe) let raw: OpaquePointer

    /// A response reused for every request a prepared response answers, as a bare pointer
    /// the caller owns (`MHD_destroy_response`): `ServingState` keeps 10,000 of them in one
    /// array rather than 10,000 objects. The body is not copied: libmicrohttpd points at
    /// `ResponseBody`'s memory, which stays retained until libmicrohttpd's last use of the
    /// response (see `releaseResponseBody`).
    static func make(prepared: PreparedResponse, extraHeaders: [HTTPHeader]) -> OpaquePointer? {
        let body = prepared.body
        let context = Unmanaged.passRetained(body).toOpaque()
        guard
            let raw = MHD_create_response_from_buffer_with_free_callback_cls(
                body.count, UnsafeMutableRawPointer(mutating: body.bytes.baseAddress), releaseResponseBody, context)
        else {
            Unmanaged<ResponseBody>.fromOpaque(context).release()
            return nil
        }
        // Added one by one, not as `prepared.headers`: no arrays built for each of 10,000 files.
        if let contentType = prepared.contentType { _ = MHD_add_response_header(raw, "Content-Type", contentType) }
        add(prepared.customHeaders, to: raw)
        _ = MHD_add_response_header(raw, "X-Mockd-Source", prepared.source)
        add(extraHeaders, to: raw)
        return raw
    }

    /// A response for one request; libmicrohttpd copies the bytes. `source`: the built answer's
    /// label when the caller has made it already (the access line needs it too).
    init?(built: BuiltResponse, source: String? = nil, extraHeaders: [HTTPHeader] = []) {
        let created = built.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let raw = created else { return nil }
        self.raw = raw
        Self.add(built.headers + extraHeaders, to: raw)
        _ = MHD_add_response_header(raw, "X-Mockd-Source", source ?? built.source)
    }

    init(adopting raw: OpaquePointer) {
        self.raw = raw
    }

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

/// libmicrohttpd's "free" callback for prepared bodies: drops the retain taken in `MHDResponse.make`.
private func releaseResponseBody(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<ResponseBody>.fromOpaque(context).release()
}

extension MHDResponse {
    /// The `truncated` fault: promises the whole body's Content-Length, sends the first half,
    /// then tells libmicrohttpd the content failed, which closes the connection.
    convenience init?(truncating reply: Reply, extraHeaders: [HTTPHeader] = []) {
        let (headers, bytes) = Self.parts(of: reply)
        let body = TruncatedBody(bytes: bytes)
        let context = Unmanaged.passRetained(body).toOpaque()
        guard let raw = MHD_create_response_from_callback(UInt64(bytes.count), 4096, readTruncated, context, releaseTruncated) else {
            Unmanaged<TruncatedBody>.fromOpaque(context).release()
            return nil
        }
        self.init(adopting: raw)
        Self.add(headers + extraHeaders, to: raw)
    }
}

extension MHDResponse {
    /// While mockd stops: the same answer with `Connection: close`, so a keep-alive client
    /// cannot keep the drain open (built per request, only during shutdown).
    convenience init?(closing reply: Reply, extraHeaders: [HTTPHeader] = []) {
        let (headers, bytes) = Self.parts(of: reply)
        let created = bytes.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return nil }
        self.init(adopting: created)
        Self.add(headers + extraHeaders + [HTTPHeader("Connection", "close")], to: created)
    }

    /// Every header (X-Mockd-Source included) and the body bytes of a reply.
    static func parts(of reply: Reply) -> (headers: [HTTPHeader], body: [UInt8]) {
        switch reply.response {
        case .prepared(let prepared):
            (prepared.headers, prepared.body.array)
        case .built(let built):
            (built.headers + [HTTPHeader("X-Mockd-Source", built.source)], built.body)
        case .streamed(let streamed):
            // Stopping, or a fault: the pieces at once, as one body.
            (streamed.head.headers + [HTTPHeader("X-Mockd-Source", streamed.head.source)], streamed.stream.pieces.flatMap(\.bytes))
        }
    }
}

final class TruncatedBody: Sendable {
    let bytes: [UInt8]
    var cutAt: Int { bytes.count / 2 }
    init(bytes: [UInt8]) { self.bytes = bytes }
}

private func readTruncated(_ context: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ max: Int)
    -> Int
{
    guard let context, let buffer else { return -2 }
    let body = Unmanaged<TruncatedBody>.fromOpaque(context).takeUnretainedValue()
    let start = Int(position)
    guard start < body.cutAt else { return -2 }  // MHD_CONTENT_READER_END_WITH_ERROR: close now
    let count = min(max, body.cutAt - start)
    body.bytes.withUnsafeBytes { raw in
        UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress! + start, byteCount: count)
    }
    return count
}

private func releaseTruncated(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<TruncatedBody>.fromOpaque(context).release()
}
