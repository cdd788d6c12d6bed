import MockdCore

/// A `text/event-stream` answer written from a value: server-sent events as they go on the wire.
/// A string example is that wire text already; any other value (an example written as JSON, or
/// what the schema generates) is events: an array's items one event each, an object with
/// `data` and only SSE's other fields (`event`, `id`, `retry`) one event with those fields, any
/// other value one event whose `data` is its compact JSON.
enum EventStreamBody {
    static func wire(_ value: JSONValue) -> [UInt8] {
        switch value {
        case .string(let text) where isWire(text):
            return Array(text.utf8)
        case .array(let items) where !items.isEmpty:
            return items.flatMap(event)
        default:
            return event(value)
        }
    }

    private static let fields: Set<String> = ["data", "event", "id", "retry"]

    /// Text that starts with a field of SSE's (`data:`, `event:`, `id:`, `retry:`) or a comment (`:`).
    static func isWire(_ text: String) -> Bool {
        guard let first = text.split(whereSeparator: \.isNewline).first else { return false }
        return first.hasPrefix(":") || fields.contains { first.hasPrefix($0 + ":") || first == $0 }
    }

    static func event(_ value: JSONValue) -> [UInt8] {
        var lines: [String] = []
        if case .object(let members) = value, members.contains(where: { $0.key == "data" }),
            members.allSatisfy({ fields.contains($0.key) })
        {
            for name in ["event", "id", "retry"] {
                if let field = value[name] { lines.append(name + ": " + oneLine(field)) }
            }
            lines += dataLines(value["data"] ?? .null)
        } else {
            lines += dataLines(value)
        }
        return Array((lines.joined(separator: "\n") + "\n\n").utf8)
    }

    /// A string's lines each on a `data:` line (the client joins them with line breaks); any
    /// other value as compact JSON, which has no line break.
    private static func dataLines(_ value: JSONValue) -> [String] {
        guard case .string(let text) = value else { return ["data: " + value.serialized] }
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { "data: " + $0 }
    }

    private static func oneLine(_ value: JSONValue) -> String {
        let text = value.stringValue ?? value.serialized
        return String(text.filter { !$0.isNewline })
    }
}
