import MockdCore

/// The string formats mockd checks and generates (`format` is an annotation in JSON Schema;
/// these are the ones OpenAPI users rely on). Unknown formats are accepted.
enum Formats {
    static func matches(_ text: String, format: String) -> Bool {
        let bytes = Array(text.utf8)
        switch format {
        case "date": return isDate(bytes[...])
        case "date-time":
            guard bytes.count >= 20, isDate(bytes[0..<10]), bytes[10] | 0x20 == UInt8(ascii: "t") else { return false }
            return isTime(bytes[11...])
        case "uuid":
            guard bytes.count == 36 else { return false }
            return bytes.enumerated().allSatisfy { offset, byte in
                [8, 13, 18, 23].contains(offset) ? byte == UInt8(ascii: "-") : ASCII.isHexDigit(byte)
            }
        case "email":
            guard let at = bytes.lastIndex(of: UInt8(ascii: "@")) else { return false }
            return at > 0 && at < bytes.count - 1 && !bytes.contains(UInt8(ascii: " "))
        case "uri":
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return false }
            let first = bytes[0] | 0x20
            return first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") && !bytes.contains(UInt8(ascii: " "))
        case "ipv4":
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 4
                && parts.allSatisfy { part in
                    part.count <= 3 && Int(part).map { (0...255).contains($0) && (part == "0" || !part.hasPrefix("0")) } == true
                }
        case "byte":
            // Base64 (RFC 4648): groups of four from its alphabet, `=` padding only at the end.
            guard bytes.count % 4 == 0 else { return false }
            let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
            guard padding <= 2 else { return false }
            return bytes.dropLast(padding).allSatisfy { byte in
                (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || (byte >= 0x30 && byte <= 0x39)
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
            }
        default:
            return true
        }
    }

    /// The value a generated body uses for a format: the same every time.
    static func example(_ format: String?) -> String? {
        switch format {
        case "date-time"?: "2024-01-01T00:00:00Z"
        case "date"?: "2024-01-01"
        case "time"?: "00:00:00Z"
        case "uuid"?: "00000000-0000-4000-8000-000000000000"
        case "email"?, "idn-email"?: "user@example.com"
        case "uri"?, "url"?, "iri"?, "uri-reference"?, "iri-reference"?: "https://example.com/"
        case "hostname"?, "idn-hostname"?: "example.com"
        case "ipv4"?: "192.0.2.1"
        case "ipv6"?: "2001:db8::1"
        case "byte"?: "bW9ja2Q="
        case "password"?: "secret"
        default: nil
        }
    }

    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    private static func isDate(_ bytes: ArraySlice<UInt8>) -> Bool {
        let start = bytes.startIndex
        guard bytes.count == 10, bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
            let year = digits(bytes[start..<start + 4]), let month = digits(bytes[start + 5..<start + 7]),
            let day = digits(bytes[start + 8..<start + 10]), (1...12).contains(month)
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    /// `HH:MM:SS[.frac](Z|±HH:MM)`.
    private static func isTime(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        guard bytes.count >= 9, let hour = digits(bytes[index..<index + 2]), bytes[index + 2] == UInt8(ascii: ":"),
            let minute = digits(bytes[index + 3..<index + 5]), bytes[index + 5] == UInt8(ascii: ":"),
            let second = digits(bytes[index + 6..<index + 8]), hour < 24, minute < 60, second <= 60
        else { return false }
        index += 8
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.endIndex, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > start, index < bytes.endIndex else { return false }
        }
        if bytes[index] | 0x20 == UInt8(ascii: "z") { return index + 1 == bytes.endIndex }
        guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"), bytes.endIndex - index == 6,
            let offsetHour = digits(bytes[index + 1..<index + 3]), bytes[index + 3] == UInt8(ascii: ":"),
            let offsetMinute = digits(bytes[index + 4..<index + 6])
        else { return false }
        return offsetHour < 24 && offsetMinute < 60
    }
}
