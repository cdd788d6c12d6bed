#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MockdCore
import MockdLock

/// What mockd remembers about one request between libmicrohttpd's calls of the access handler.
///
/// libmicrohttpd calls the handler for a connection from one thread at a time, so the fields
/// need no lock; it is created in the URI-log callback and released in the completion callback.
final class RequestState: @unchecked Sendable {  // mutable fields: one libmicrohttpd thread at a time
    enum Phase {
        /// Only the request line has been seen (URI-log callback).
        case new
        /// Headers seen; the body, if any, is arriving.
        case receiving
        /// Suspended (delay, timeout fault, upstream call); `pending` says what to send when resumed.
        case parked
        /// A response was queued.
        case answered
    }

    /// What a parked request does once it is resumed.
    struct Pending: Sendable {
        var outcome: Outcome
        var request: MockRequest
        var serving: ServingState
    }

    /// Set when parked (work replaces its outcome before resuming); read by the handler call that
    /// follows on the libmicrohttpd thread.
    let pending = Lock<Pending?>(nil)

    var phase = Phase.new
    /// The raw URI had a `%` not followed by two hex digits, or `%00`.
    let badPercentEncoding: Bool
    /// What follows `?` in the raw URI (still encoded), for forwarding and the journal.
    let rawQuery: String
    /// The path as sent, when it holds a percent-encoding (else nil; see `MockRequest.rawPath`).
    let rawPath: String?
    /// The request headers, read once on the handler's first call (`checkHead`).
    var headers: [HTTPHeader]?
    var body: [UInt8] = []
    var bodyTooLarge = false
    /// The connection guard watches this body's rate (`--min-body-rate`): it is told when the body is in.
    var bodyWatched = false
    /// Body bytes received (`body` may hold fewer: see `BodyBudget`).
    var bodyBytesSeen = 0
    /// How much of the body to hold; set on the handler's first call.
    var bodyKeepLimit = Int.max
    /// Bytes reserved from the server's body budget for `body` (its capacity), returned at completion.
    var heldBodyBytes = 0
    /// A chunk did not fit in the body budget: answered 503.
    var overBudget = false
    /// Monotonic nanoseconds when the request line arrived, for the access log's duration.
    let startNanoseconds: UInt64

    init(rawURI: UnsafePointer<CChar>?) {
        badPercentEncoding = rawURI.map(Self.hasBadPercentEncoding) ?? false
        rawQuery = rawURI.flatMap(Self.query(of:)) ?? ""
        rawPath = rawURI.flatMap(Self.encodedPath(of:))
        startNanoseconds = Self.monotonicNanoseconds()
    }

    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The part after the first `?` (before any `#`), or nil.
    static func query(of uri: UnsafePointer<CChar>) -> String? {
        guard let mark = strchr(uri, Int32(UInt8(ascii: "?"))) else { return nil }
        let start = mark + 1
        var end = start
        while end.pointee != 0 && end.pointee != CChar(UInt8(ascii: "#")) { end += 1 }
        let bytes = UnsafeRawBufferPointer(start: start, count: end - start)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The part before `?` or `#` when it contains `%`; nil otherwise (no copy for most requests).
    static func encodedPath(of uri: UnsafePointer<CChar>) -> String? {
        var end = uri
        var encoded = false
        while end.pointee != 0 && end.pointee != CChar(UInt8(ascii: "?")) && end.pointee != CChar(UInt8(ascii: "#")) {
            if end.pointee == CChar(UInt8(ascii: "%")) { encoded = true }
            end += 1
        }
        guard encoded else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: uri, count: end - uri), as: UTF8.self)
    }

    /// libmicrohttpd decodes `%zz` as the three characters it is; mockd answers 400 instead,
    /// and `%00`, which would cut the path short.
    static func hasBadPercentEncoding(_ uri: UnsafePointer<CChar>) -> Bool {
        var cursor = uri
        while cursor.pointee != 0 {
            let byte = UInt8(bitPattern: cursor.pointee)
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }  // the query is checked by its own rules
            if byte == UInt8(ascii: "%") {
                let high = UInt8(bitPattern: cursor[1])
                guard high != 0, isHex(high) else { return true }
                let low = UInt8(bitPattern: cursor[2])
                guard low != 0, isHex(low) else { return true }
                if high == UInt8(ascii: "0") && low == UInt8(ascii: "0") { return true }
                cursor += 3
                continue
            }
            cursor += 1
        }
        return false
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 70) || (byte >= 97 && byte <= 102)
    }
}
