import Mustache

/// A route's `"websocket"` (or a `.ws` file): the conversation mockd holds with each connection
/// the route upgrades. Decoded and compiled at load; a connection only walks it.
package struct WebSocketScript: Sendable {
    /// What the route speaks; the handshake picks the client's first one listed here. Empty: any
    /// (no `Sec-WebSocket-Protocol` in the answer).
    package let subprotocols: [String]
    /// Sent after the handshake, in order.
    package let onOpen: [WebSocketMessage]
    /// `intervalMs`: the spacing of `onOpen` messages that give no `afterMs` of their own.
    package let intervalMilliseconds: Int?
    /// Tried in order against each message the app sends; the first that matches answers.
    package let rules: [WebSocketRule]
    /// The route's own ending (`"close"`), if any.
    package let ending: WebSocketEnding?
    /// A broken network (`"fault"`), if any.
    package let fault: WebSocketFault?
    /// A captured conversation (a `.ws` file): sends and expectations, in order.
    package let steps: [WebSocketStep]

    package init(
        subprotocols: [String] = [], onOpen: [WebSocketMessage] = [], intervalMilliseconds: Int? = nil, rules: [WebSocketRule] = [],
        ending: WebSocketEnding? = nil, fault: WebSocketFault? = nil, steps: [WebSocketStep] = []
    ) {
        self.subprotocols = subprotocols
        self.onOpen = onOpen
        self.intervalMilliseconds = intervalMilliseconds
        self.rules = rules
        self.ending = ending
        self.fault = fault
        self.steps = steps
    }
}

/// One message mockd sends: its payload and when, after the previous one.
package struct WebSocketMessage: Sendable {
    package enum Payload: Sendable {
        /// Text, the same every time.
        case text(String)
        /// Text rendered per connection (path, query, headers of the upgrade; `message` in a reply).
        case template(MessageTemplate)
        /// Bytes (`"base64"`).
        case binary([UInt8])
    }

    package let payload: Payload
    package let afterMilliseconds: Int?

    package init(_ payload: Payload, afterMilliseconds: Int? = nil) {
        self.payload = payload
        self.afterMilliseconds = afterMilliseconds
    }
}

/// A message's text with `{{…}}` in it, parsed once at load. JSON messages escape what they
/// insert for a JSON string, so `{"said": "{{message}}"}` stays JSON whatever the app said.
package struct MessageTemplate: Sendable {
    let template: MustacheTemplate
    package let text: String

    init(text: String, json: Bool) throws {
        template = try ResponseTemplate.parse(text, json: json)
        self.text = text
    }

    func render(_ context: [String: Any]) -> String {
        template.render(context)
    }
}

/// An `onMessage` rule: what it matches, and what it does.
package struct WebSocketRule: Sendable {
    package let match: WebSocketMatch
    package let replies: [WebSocketMessage]
    /// The replies go to every connection of the same session on the same path, this one included.
    package let broadcast: Bool
    /// Close after the replies.
    package let close: WebSocketClose?
}

/// What a message the app sends is compared with.
package enum WebSocketMatch: Sendable {
    /// Any message.
    case any
    /// A JSON message containing this value (as a route's `match.json`).
    case json(JSONValue)
    /// Exactly this text.
    case text(String)
    /// Text this pattern finds a match in.
    case regex(MessagePattern)
    /// A binary message of exactly these bytes (`{"base64": "…"}`).
    case binary([UInt8])

    package func matches(_ message: WebSocketPayload) -> Bool {
        switch self {
        case .any:
            return true
        case .json(let expected):
            guard case .text(let text) = message, let value = try? JSONParser.parse(Array(text.utf8)) else { return false }
            return value.contains(expected)
        case .text(let expected):
            guard case .text(let text) = message else { return false }
            return text == expected
        case .regex(let pattern):
            guard case .text(let text) = message else { return false }
            return pattern.finds(in: text)
        case .binary(let expected):
            guard case .binary(let bytes) = message else { return false }
            return bytes == expected
        }
    }
}

/// A `regex` compiled at load. Regex is not Sendable; a compiled pattern is never changed, and
/// matching makes its own state.
package struct MessagePattern: @unchecked Sendable {
    package let source: String
    private let regex: Regex<AnyRegexOutput>

    init(_ source: String) throws {
        self.source = source
        self.regex = try Regex(source)
    }

    func finds(in text: String) -> Bool {
        (try? regex.firstMatch(in: text)) != nil
    }
}

/// A close handshake mockd starts.
package struct WebSocketClose: Sendable, Equatable {
    package let code: UInt16
    package let reason: String

    package init(code: UInt16, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The codes an endpoint may send: 1005, 1006 and 1015 only report what happened, and the
    /// rest below 3000 are the protocol's to define (RFC 6455, section 7.4).
    package static func isSendable(_ code: UInt16) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }

    /// What a close code must be, as refusals say it.
    package static let sendableCodes = "1000-1003, 1007-1014 or 3000-4999"
}

/// The route's `"close"`: a close after so many messages from the app, or at a time after the open.
package struct WebSocketEnding: Sendable {
    package let close: WebSocketClose
    package let afterMessages: Int?
    package let afterMilliseconds: Int?
}

/// A broken network instead of a close: the app's reconnect logic meets it.
package struct WebSocketFault: Sendable {
    package enum Kind: String, Sendable, CaseIterable {
        /// TCP close without a close frame.
        case drop
        /// A reset (RST).
        case reset
        /// Stop reading and answering, pings included; the connection stays open.
        case stall
    }

    package let kind: Kind
    package let afterMessages: Int?
    package let afterMilliseconds: Int?
}

/// A step of a captured conversation (a `.ws` file).
package enum WebSocketStep: Sendable {
    case send(WebSocketMessage)
    case expect(WebSocketMatch)
}

/// One WebSocket message either way: one the app sent, or one mockd sends, rendered.
package enum WebSocketPayload: Sendable, Equatable {
    case text(String)
    case binary([UInt8])

    /// The bytes on the wire, and whether they go as a binary message.
    package var bytes: (bytes: [UInt8], binary: Bool) {
        switch self {
        case .text(let text): (Array(text.utf8), false)
        case .binary(let bytes): (bytes, true)
        }
    }
}

/// A `.ws` file's script, as a class: a prepared response carries it as one optional reference.
package final class WebSocketFileConversation: Sendable {
    package let script: WebSocketScript

    package init(_ script: WebSocketScript) {
        self.script = script
    }
}
