import MockdCore

/// The fields of a form body: `application/x-www-form-urlencoded` (`a=1&b=x+y`) and
/// `multipart/form-data` (parts named by their `Content-Disposition`). Written here because no
/// dependency of the project reads either, and validation needs only names and text values
/// (a file part's bytes are its value; nothing is written anywhere).
enum FormBody {
    static func urlEncoded(_ body: [UInt8]) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        for pair in body.split(separator: UInt8(ascii: "&")) where !pair.isEmpty {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            fields.append((decoded(parts[0]), parts.count > 1 ? decoded(parts[1]) : ""))
        }
        return fields
    }

    /// `+` is a space, `%41` the byte 0x41; a `%` not followed by two hex digits stays as it is.
    static func decoded(_ bytes: ArraySlice<UInt8>) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                result.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex, let high = ASCII.hexValue(bytes[index + 1]),
                let low = ASCII.hexValue(bytes[index + 2])
            {
                result.append(high << 4 | low)
                index += 2
            } else {
                result.append(byte)
            }
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `multipart/form-data; boundary="XyZ"` → `XyZ`.
    static func boundary(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimming(.spaces).lowercased() == "boundary" else { continue }
            let value = pair[1].trimming([.spaces, .quotes])
            return value.isEmpty ? nil : String(value)
        }
        return nil
    }

    /// The parts between `--boundary` lines, each named by its `Content-Disposition: form-data;
    /// name="…"`; nil when the body is not multipart with that boundary.
    static func multipart(_ body: [UInt8], boundary: String) -> [(name: String, value: String)]? {
        let delimiter = Array("--\(boundary)".utf8)
        var starts: [Int] = []
        var index = 0
        while let found = find(delimiter, in: body, from: index) {
            starts.append(found)
            index = found + delimiter.count
        }
        guard starts.count >= 2 else { return nil }
        var fields: [(name: String, value: String)] = []
        for (start, end) in zip(starts, starts.dropFirst()) {
            var part = body[(start + delimiter.count)..<end]
            if part.starts(with: [13, 10]) { part = part.dropFirst(2) }
            if part.last == 10 { part = part.dropLast() }
            if part.last == 13 { part = part.dropLast() }
            guard let split = find([13, 10, 13, 10], in: Array(part), from: 0) else { continue }
            let head = String(decoding: part.prefix(split), as: UTF8.self)
            let value = String(decoding: part.dropFirst(split + 4), as: UTF8.self)
            guard let name = Self.name(inHead: head) else { continue }
            fields.append((name, value))
        }
        return fields
    }

    private static func name(inHead head: String) -> String? {
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-disposition:") {
            for parameter in line.split(separator: ";").dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimming(.spaces).lowercased() == "name" {
                    return String(pair[1].trimming([.spaces, .quotes]))
                }
            }
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
