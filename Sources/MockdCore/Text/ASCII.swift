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

extension ASCII {
    /// What `Substring.trimming(_:)` removes from either end, in any mix. Each caller names the
    /// set it has always removed: HTTP's optional white space is spaces and tabs, while cookie
    /// pairs, `Accept` ranges and form parameters have only ever lost spaces (and quotes where a
    /// value may be quoted).
    package struct Padding: OptionSet, Sendable {
        package let rawValue: UInt8

        package init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        package static let spaces = Padding(rawValue: 1 << 0)
        package static let tabs = Padding(rawValue: 1 << 1)
        package static let quotes = Padding(rawValue: 1 << 2)
        /// OWS, the optional white space around a field value or a list element (RFC 9110 §5.6.3).
        package static let whitespace: Padding = [.spaces, .tabs]

        func contains(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: " "): contains(.spaces)
            case UInt8(ascii: "\t"): contains(.tabs)
            case UInt8(ascii: "\""): contains(.quotes)
            default: false
            }
        }
    }
}

extension Substring {
    /// Without `padding` at either end.
    ///
    /// The answer of dropping whole `Character`s equal to a padding byte, as every copy this
    /// replaced did, found in the bytes (framing runs it on each `Content-Length`). The two
    /// readings differ only where a trimmed byte and the non-ASCII scalar beside it form one
    /// Character (a space and a combining mark after it; a prepended mark and a space after it):
    /// when the bytes stop at a non-ASCII byte after trimming there, the Characters decide.
    package func trimming(_ padding: ASCII.Padding) -> Substring {
        let bounds = utf8.withContiguousStorageIfAvailable { bytes -> Range<Int>? in
            var lower = 0
            var upper = bytes.count
            while lower < upper, padding.contains(bytes[lower]) { lower += 1 }
            while upper > lower, padding.contains(bytes[upper - 1]) { upper -= 1 }
            let joinedFirst = lower > 0 && lower < bytes.count && bytes[lower] >= 0x80
            let joinedLast = upper < bytes.count && upper > lower && bytes[upper - 1] >= 0x80
            return joinedFirst || joinedLast ? nil : lower..<upper
        }
        guard let bounds = bounds ?? nil else { return trimmingCharacters(padding) }
        return self[utf8.index(startIndex, offsetBy: bounds.lowerBound)..<utf8.index(startIndex, offsetBy: bounds.upperBound)]
    }

    private func trimmingCharacters(_ padding: ASCII.Padding) -> Substring {
        func isPadding(_ character: Character) -> Bool {
            character.utf8.count == 1 && padding.contains(character.utf8.first!)
        }
        var result = self
        while let first = result.first, isPadding(first) { result = result.dropFirst() }
        while let last = result.last, isPadding(last) { result = result.dropLast() }
        return result
    }
}
