import MockdCore
import Yams
// Foundation for `removingPercentEncoding` ($ref pointers), which FoundationEssentials lacks.
import Foundation

/// Reads a description file (YAML or JSON) into a `JSONValue` tree, keys in document order (so
/// generated bodies list properties as the document does). JSON goes through mockd's own
/// parser (a 4 MB description in milliseconds); YAML through Yams.
enum DocumentReader {
    struct Failure: Error {
        var location: String?
        var message: String
    }

    static func read(path: String, files: any FileSource) throws(Failure) -> JSONValue {
        let bytes: [UInt8]
        do {
            bytes = try files.read(path).array
        } catch {
            throw Failure(message: "cannot read the file (does it exist?)")
        }
        return try parse(bytes)
    }

    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        let first = bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        if first == UInt8(ascii: "{") {
            do {
                return try JSONParser.parse(bytes)
            } catch {
                throw Failure(location: error.location, message: "invalid JSON: \(error.message)")
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch {
            throw Failure(message: "invalid YAML: \(error)")
        }
        guard let node else { throw Failure(message: "the file is empty") }
        return value(node)
    }

    static func value(_ node: Node) -> JSONValue {
        switch node {
        case .mapping(let mapping):
            return .object(mapping.map { (key: $0.key.string ?? scalarText($0.key), value: value($0.value)) })
        case .sequence(let sequence):
            return .array(sequence.map { value($0) })
        case .alias:
            return .null
        case .scalar(let scalar):
            switch Tag.Name(rawValue: node.tag.rawValue) {
            case .null: return .null
            case .bool: return node.bool.map { .bool($0) } ?? .string(scalar.string)
            case .int: return node.int.map { .number($0) } ?? decimal(scalar.string).map { .number($0) } ?? .string(scalar.string)
            // As written when JSON writes it so (`2.50`, `1.5e400`): a Double would print `2.5`,
            // and make null of a number beyond its range.
            case .float:
                if isJSONNumber(scalar.string) { return .number(scalar.string) }
                if let number = node.float, number.isFinite { return .number(number) }
                return .string(scalar.string)
            default: return .string(scalar.string)
            }
        }
    }

    /// A decimal integer beyond `Int`'s range (`123456789012345678901234567890`, which Yams
    /// tags as an integer but cannot make an `Int` of) as JSON number text: its sign (`-`
    /// kept, `+` dropped) and digits, YAML's `_` separators left out. Nil for other forms
    /// (hexadecimal, octal, a leading zero), which stay text.
    static func decimal(_ text: String) -> String? {
        var digits = text.filter { $0 != "_" }
        var sign = ""
        if let first = digits.first, first == "-" || first == "+" {
            if first == "-" { sign = "-" }
            digits.removeFirst()
        }
        guard let first = digits.first, first != "0", digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return sign + digits
    }

    /// JSON's number syntax: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
    static func isJSONNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let leadingZero = bytes.first == UInt8(ascii: "0")
        let whole = digits()
        guard whole > 0, !leadingZero || whole == 1 else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    private static func scalarText(_ node: Node) -> String {
        if case .scalar(let scalar) = node { return scalar.string }
        return ""
    }
}

extension JSONValue {
    /// RFC 6901: `/components/schemas/Pet` (with `~1` for `/` and `~0` for `~`).
    func at(pointer: String) -> JSONValue? {
        var current = self
        for raw in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let token = raw.replacing("~1", with: "/").replacing("~0", with: "~").removingPercentEncoding ?? String(raw)
            switch current {
            case .object: guard let next = current[token] else { return nil }; current = next
            case .array(let items): guard let index = Int(token), items.indices.contains(index) else { return nil }; current = items[index]
            default: return nil
            }
        }
        return current
    }

    var stringValue: String? { if case .string(let text) = self { text } else { nil } }
    var arrayValue: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
    var objectValue: [(key: String, value: JSONValue)]? { if case .object(let members) = self { members } else { nil } }
    var boolValue: Bool? { if case .bool(let flag) = self { flag } else { nil } }
    var doubleValue: Double? { if case .number(let text) = self { Double(text) } else { nil } }
    var intValue: Int? {
        if case .number(let text) = self { return Int(text) ?? Double(text).flatMap { $0.rounded() == $0 ? Int(exactly: $0) : nil } }
        return nil
    }
}

/// Pointer tokens escaped (RFC 6901).
func pointerToken(_ key: String) -> String {
    key.replacing("~", with: "~0").replacing("/", with: "~1")
}
