#if canImport(FoundationEssentials)
    import FoundationEssentials  // base64
#else
    import Foundation
#endif

/// A conversation as it happened, written down as a `.ws` file that plays it back: what the
/// server sent becomes `send` lines, spaced as they were sent; what the app sent becomes `expect`
/// lines, so the replay waits for the app as the server did. `--record` keeps relayed
/// conversations this way, and `mockd import` Chrome's captured ones.
package struct WebSocketTranscript: Sendable, Equatable {
    /// One message, with when it went (nanoseconds on any monotonic clock).
    package struct Entry: Sendable, Equatable {
        package var fromApp: Bool
        package var message: WebSocketPayload
        package var nanoseconds: UInt64

        package init(fromApp: Bool, message: WebSocketPayload, nanoseconds: UInt64) {
            self.fromApp = fromApp
            self.message = message
            self.nanoseconds = nanoseconds
        }
    }

    /// The subprotocol the handshake chose, said on the file's first line.
    package var subprotocol: String?
    /// When the conversation opened: the first `send`'s wait counts from here.
    package var openedNanoseconds: UInt64
    package private(set) var entries: [Entry] = []

    package init(subprotocol: String?, openedNanoseconds: UInt64) {
        self.subprotocol = subprotocol
        self.openedNanoseconds = openedNanoseconds
    }

    package mutating func append(_ entry: Entry) {
        entries.append(entry)
    }

    /// The `.ws` file: one JSON object a line. A `send`'s `afterMs` is its wait after the line
    /// before (the open, the server's previous message, or the app's message it answers).
    package var fileText: String {
        var lines: [String] = []
        if let subprotocol { lines.append(JSONValue.object([("subprotocols", .array([.string(subprotocol)]))]).serialized) }
        var previous = openedNanoseconds
        for entry in entries {
            if entry.fromApp {
                // An `expect` waits for the same JSON (contained), text or bytes.
                lines.append(JSONValue.object([("expect", Self.messageValue(entry.message))]).serialized)
            } else {
                var line: [(key: String, value: JSONValue)] = [("send", Self.messageValue(entry.message, sent: true))]
                // To the nearest millisecond: a capture's times are seconds in a Double, whose
                // 120 ms gaps can come out a few nanoseconds short.
                let waited = entry.nanoseconds > previous ? (entry.nanoseconds - previous + 500_000) / 1_000_000 : 0
                if waited > 0 { line.append(("afterMs", .number(Int(clamping: waited)))) }
                lines.append(JSONValue.object(line).serialized)
            }
            previous = entry.nanoseconds
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{"json": …}` for a text that is a JSON object or array, `{"text": …}` for other text,
    /// `{"base64": …}` for a binary message. A `send`'s text holding `{{` is sent as written
    /// (`literal`), not read as a template.
    static func messageValue(_ message: WebSocketPayload, sent: Bool = false) -> JSONValue {
        switch message {
        case .text(let text):
            if let value = try? JSONParser.parse(text), value.isContainer, !(sent && value.serialized.contains("{{")) {
                return .object([("json", value)])
            }
            return .object([("text", .string(sent ? literal(text) : text))])
        case .binary(let bytes):
            return .object([("base64", .string(Data(bytes).base64EncodedString()))])
        }
    }

    /// Text a `send` line sends as written: a message's `{{` starts a template, so text holding
    /// one switches the template's delimiters (`{{=<% %>=}}`) to a pair the text does not hold,
    /// just before its first `{{` (never alone on a line, where Mustache would drop the line
    /// break after it).
    package static func literal(_ text: String) -> String {
        guard let first = text.firstRange(of: "{{") else { return text }
        var marks = "%"
        while text.contains("<" + marks) || text.contains(marks + ">") { marks += "%" }
        return text[..<first.lowerBound] + "{{=<\(marks) \(marks)>=}}" + text[first.lowerBound...]
    }
}
