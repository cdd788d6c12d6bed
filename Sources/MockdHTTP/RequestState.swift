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
    /// Monotonic nanoseconds when the answer was logged (0 until then): the connection's idle
    /// time starts there, without another clock read at completion.
    var loggedNanoseconds: UInt64 = 0

    init(rawURI: UnsafePointer<CChar>?) {
        let uri = rawURI.map(Self.parse) ?? (badPercentEncoding: false, rawQuery: "", rawPath: nil)
        badPercentEncoding = uri.badPercentEncoding
        rawQuery = uri.rawQuery
        rawPath = uri.rawPath
        startNanoseconds = Self.monotonicNanoseconds()
    }

    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The raw URI in one pass (this runs for every request):
    /// - `badPercentEncoding`: the path has a `%` not followed by two hex digits, or `%00`
    ///   (libmicrohttpd decodes `%zz` as the three characters it is, and `%00` would cut the
    ///   path short: mockd answers 400 instead). The query is checked by its own rules.
    /// - `rawQuery`: the part after the first `?`, before any `#` (empty when there is none).
    /// - `rawPath`: the part before `?` or `#` when it contains `%`; nil otherwise (no copy for most requests).
    static func parse(_ uri: UnsafePointer<CChar>) -> (badPercentEncoding: Bool, rawQuery: String, rawPath: String?) {
        var cursor = uri
        var encoded = false
        var bad = false
        while true {
            let byte = UInt8(bitPattern: cursor.pointee)
            if byte == 0 || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "%") {
                encoded = true
                let high = UInt8(bitPattern: cursor[1])
                let low = high == 0 ? 0 : UInt8(bitPattern: cursor[2])
                if !isHex(high) || !isHex(low) || (high == UInt8(ascii: "0") && low == UInt8(ascii: "0")) {
                    bad = true
                    // Past what was checked, never past the terminating NUL.
                    cursor += high == 0 ? 1 : (low == 0 ? 2 : 3)
                    continue
                }
                cursor += 3
                continue
            }
            cursor += 1
        }
        let rawPath = encoded ? String(decoding: UnsafeRawBufferPointer(start: uri, count: cursor - uri), as: UTF8.self) : nil
        guard cursor.pointee == CChar(UInt8(ascii: "?")) else { return (bad, "", rawPath) }
        let start = cursor + 1
        var end = start
        while end.pointee != 0 && end.pointee != CChar(UInt8(ascii: "#")) { end += 1 }
        return (bad, String(decoding: UnsafeRawBufferPointer(start: start, count: end - start), as: UTF8.self), rawPath)
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 70) || (byte >= 97 && byte <= 102)
    }
}
