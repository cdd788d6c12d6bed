/// One header field. Kept as an ordered list, not a dictionary: order and repeats matter on the wire.
public struct HTTPHeader: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Field names compared as HTTP does (ASCII case-insensitively), without allocating.
    public static func namesEqual(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard x.count == y.count else { return false }
                for index in 0..<x.count where x[index] | 0x20 != y[index] | 0x20 || (x[index] != y[index] && !isLetter(x[index])) {
                    return false
                }
                return true
            }
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
}

extension Array where Element == HTTPHeader {
    /// The first value for `name`, compared case-insensitively (HTTP field names are).
    public func first(named name: String) -> String? {
        for header in self where HTTPHeader.namesEqual(header.name, name) {
            return header.value
        }
        return nil
    }
}
