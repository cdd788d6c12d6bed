#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import MockdCore

/// The request target as sent (still percent-encoded), read once when the request line arrives:
/// what libmicrohttpd's decoded URL no longer shows.
struct RequestTarget: Sendable {
    /// Why the path cannot be served, naming what was sent: a `%` not followed by two hex digits
    /// (libmicrohttpd would keep `%zz` as the three characters), or `%00` (it would cut the path
    /// short). Nil when the path's escapes are sound. The query is checked by its own rules.
    let percentEncodingError: String?
    /// The part after the first `?`, before any `#` (empty when there is none), for forwarding and the journal.
    let rawQuery: String
    /// The path as sent when it holds a `%` (else nil: no copy for most requests; see `MockRequest.rawPath`).
    let rawPath: String?
    /// The length of the path as sent (before `?` or `#`), in bytes.
    let pathLength: Int

    static let empty = RequestTarget(percentEncodingError: nil, rawQuery: "", rawPath: nil)

    init(percentEncodingError: String?, rawQuery: String, rawPath: String?) {
        self.percentEncodingError = percentEncodingError
        self.rawQuery = rawQuery
        self.rawPath = rawPath
        pathLength = rawPath?.utf8.count ?? 0
    }

    /// One pass over the raw URI (this runs for every request): libc's `strcspn` skips to the
    /// next byte that matters, so a path without `%` costs a fraction of a byte-by-byte loop.
    init(_ uri: UnsafePointer<CChar>) {
        var cursor = uri
        var encoded = false
        var error: String?
        while true {
            cursor += strcspn(cursor, "%?#")
            guard cursor.pointee == CChar(UInt8(ascii: "%")) else { break }  // the NUL, `?` or `#`
            encoded = true
            let high = UInt8(bitPattern: cursor[1])
            let low = high == 0 ? 0 : UInt8(bitPattern: cursor[2])
            // Past what was checked, never past the terminating NUL.
            let length = high == 0 ? 1 : (low == 0 ? 2 : 3)
            if error == nil {
                if !ASCII.isHexDigit(high) || !ASCII.isHexDigit(low) {
                    let sent = String(decoding: UnsafeRawBufferPointer(start: cursor, count: length), as: UTF8.self)
                    error = "the URL has an invalid percent-encoding: '\(sent)' (% must be followed by two hex digits)"
                } else if high == UInt8(ascii: "0") && low == UInt8(ascii: "0") {
                    error = "the URL has %00 (a NUL byte), which no path may contain"
                }
            }
            cursor += length
        }
        percentEncodingError = error
        pathLength = cursor - uri
        rawPath = encoded ? String(decoding: UnsafeRawBufferPointer(start: uri, count: cursor - uri), as: UTF8.self) : nil
        guard cursor.pointee == CChar(UInt8(ascii: "?")) else {
            rawQuery = ""
            return
        }
        let start = cursor + 1
        var end = start
        while end.pointee != 0 && end.pointee != CChar(UInt8(ascii: "#")) { end += 1 }
        rawQuery = String(decoding: UnsafeRawBufferPointer(start: start, count: end - start), as: UTF8.self)
    }
}
