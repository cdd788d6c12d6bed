import MockdCore

/// Sample values of scalars: the five built-in ones, and custom scalars recognised by their name
/// (`DateTime`, `URI`, `UUID`, …), so a date field holds a date an app's decoder accepts. An
/// unknown custom scalar is a string.
enum SampleScalars {
    static func value(scalar: String, field: String, hash: UInt64) -> JSONValue {
        let n = 1 + hash % 100
        switch scalar {
        case "Int": return .number(String(n))
        case "Float": return .number(String(n) + "." + String(hash / 100 % 100))
        case "Boolean": return .bool(hash % 2 == 0)
        case "ID": return .string(String(hash % 1_000_000))
        case "String": return .string("\(field) \(n)")
        default: break
        }
        let name = scalar.lowercased()
        let day = 1 + hash % 28
        let twoDigits = { (value: UInt64) in value < 10 ? "0\(value)" : String(value) }
        if name.contains("datetime") || name.contains("timestamp") || name.contains("instant") {
            return .string("2026-01-\(twoDigits(day))T12:00:00Z")
        }
        if name == "date" || name.hasSuffix("date") { return .string("2026-01-\(twoDigits(day))") }
        if name == "time" { return .string("12:\(twoDigits(hash % 60)):00") }
        if name.contains("uri") || name.contains("url") { return .string("https://example.com/\(field)/\(n)") }
        if name.contains("email") { return .string("user\(n)@example.com") }
        if name.contains("uuid") { return .string(uuid(hash)) }
        if name == "json" || name == "jsonobject" { return .object([]) }
        if name.contains("html") { return .string("<p>\(field) \(n)</p>") }
        if name == "long" || name == "bigint" { return .number(String(n)) }
        if name.contains("decimal") || name.contains("money") { return .string(String(n) + ".00") }
        return .string("\(field) \(n)")
    }

    /// A UUID's form, from the hash: the same path gets the same one.
    private static func uuid(_ hash: UInt64) -> String {
        let hex = String(hash, radix: 16)
        let digits = String(repeating: "0", count: max(0, 16 - hex.count)) + hex
        let padded = Array(digits + digits)
        func part(_ range: Range<Int>) -> String { String(padded[range]) }
        return "\(part(0..<8))-\(part(8..<12))-4\(part(13..<16))-8\(part(17..<20))-\(part(20..<32))"
    }

    /// FNV-1a, 64 bits: a stable hash (Swift's `Hasher` is seeded per process).
    static func fnv1a(_ text: String, seed: UInt64) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
