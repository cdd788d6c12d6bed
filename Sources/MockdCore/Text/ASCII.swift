/// Byte tests on text, one of each for every module: HTTP's syntax and URLs' escapes are
/// defined on bytes, and the request path reads them from contiguous UTF-8.
///
/// `public`, where the rest of the core is `package`, for `isHexDigit` alone: the adapter tests
/// the two bytes after each `%` of a request target with it, and release builds inline small
/// public members across modules but not package ones (as `HTTPHeader`).
public enum ASCII {
    /// `0`–`9`, `a`–`f`, `A`–`F`: a digit of a percent-escape, a UUID or an IPv6 address.
    public static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default:
            false
        }
    }

    /// A hex digit's value (`isHexDigit`'s bytes); nil for any other byte.
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// An RFC 9110 §5.6.2 token, one or more `tchar`: what a method or a field name must be.
    package static func isToken(_ text: String) -> Bool {
        if let result = text.utf8.withContiguousStorageIfAvailable({ !$0.isEmpty && $0.allSatisfy(isTokenByte) }) { return result }
        return !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }

    /// `tchar`: a letter, a digit or one of ``!#$%&'*+-.^_`|~``. One switch, where a search of
    /// the fifteen marks' text walked it for each byte that is not a letter or digit (`-` in
    /// most field names).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
