#if canImport(FoundationEssentials)
    import FoundationEssentials  // base64
#else
    import Foundation
#endif

/// A conversation as it happened, written down as a `.ws` file that plays it back: what the
/// server sent becomes `send` lines, spaced as they were sent; what the app sent becomes `expect`
/// lines, so the replay waits for the app as the server did. `--record` keeps relayed
/// conversations this way.
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
            let message = Self.messageValue(entry.message)
            if entry.fromApp {
                lines.append(JSONValue.object([("expect", Self.matchValue(message))]).serialized)
            } else {
                var line: [(key: String, value: JSONValue)] = [("send", message)]
                let waited = entry.nanoseconds > previous ? (entry.nanoseconds - previous) / 1_000_000 : 0
                if waited > 0 { line.append(("afterMs", .number(Int(clamping: waited)))) }
                lines.append(JSONValue.object(line).serialized)
            }
            previous = entry.nanoseconds
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{"json": …}` for a text that is a JSON object or array, `{"text": …}` for other text,
    /// `{"base64": …}` for a binary message.
    static func messageValue(_ message: WebSocketPayload) -> JSONValue {
        switch message {
        case .text(let text):
            if let value = try? JSONParser.parse(text), value.isContainer { return .object([("json", value)]) }
            return .object([("text", .string(text))])
        case .binary(let bytes):
            return .object([("base64", .string(Data(bytes).base64EncodedString()))])
        }
    }

    /// What an `expect` line waits for: the same JSON or text; any message for a binary one
    /// (a match reads text only).
    static func matchValue(_ message: JSONValue) -> JSONValue {
        message["base64"] == nil ? message : .object([])
    }
}
