#if canImport(FoundationEssentials)
    import FoundationEssentials  // base64 only
#else
    import Foundation
#endif

/// Reading a route's `"websocket"` into a `WebSocketScript`, with every error named by its place.
extension RouteDecoder {
    static let webSocketKeys = ["subprotocols", "onOpen", "intervalMs", "onMessage", "close", "fault"]
    static let messageKeys = ["text", "json", "base64", "afterMs"]
    static let ruleKeys = ["match", "reply", "broadcast", "close"]
    static let messageMatchKeys = ["json", "text", "regex", "base64"]
    static let endingKeys = ["code", "reason", "afterMessages", "afterMs"]
    static let webSocketFaultKeys = ["kind", "afterMessages", "afterMs"]

    /// `"websocket": {…}` of a route. Nil after reporting what is wrong.
    mutating func decodeWebSocket(_ value: JSONValue, at: String) -> WebSocketScript? {
        guard case .object = value else {
            error(at, "expected a conversation like {\"onOpen\": [{\"text\": \"hello\"}], \"onMessage\": […]}, found \(found(value))")
            return nil
        }
        checkKeys(value, allowed: Self.webSocketKeys, at: at)
        let errorsBefore = diagnostics.count
        var subprotocols: [String] = []
        if let raw = value["subprotocols"] {
            if case .array(let items) = raw {
                for (index, item) in items.enumerated() {
                    if case .string(let name) = item, ASCII.isToken(name) {
                        subprotocols.append(name)
                    } else {
                        error(
                            "\(at).subprotocols[\(index)]",
                            "expected a subprotocol name such as \"graphql-transport-ws\", found \(found(item))")
                    }
                }
            } else {
                error(at + ".subprotocols", "expected a list of names such as [\"chat.v1\"], found \(found(raw))")
            }
        }
        let interval = value["intervalMs"].flatMap { milliseconds($0, at: at + ".intervalMs") }
        var onOpen: [WebSocketMessage] = []
        if let raw = value["onOpen"] {
            onOpen = messages(raw, at: at + ".onOpen")
        }
        var rules: [WebSocketRule] = []
        if let raw = value["onMessage"] {
            if case .array(let items) = raw {
                for (index, item) in items.enumerated() {
                    if let rule = decodeRule(item, at: "\(at).onMessage[\(index)]") { rules.append(rule) }
                }
            } else {
                error(
                    at + ".onMessage",
                    "expected a list of rules like [{\"match\": {\"text\": \"ping\"}, \"reply\": [{\"text\": \"pong\"}]}], found \(found(raw))"
                )
            }
        }
        let ending = value["close"].flatMap { decodeEnding($0, at: at + ".close") }
        let fault = value["fault"].flatMap { decodeWebSocketFault($0, at: at + ".fault") }
        guard diagnostics.count == errorsBefore else { return nil }
        return WebSocketScript(
            subprotocols: subprotocols, onOpen: onOpen, intervalMilliseconds: interval, rules: rules, ending: ending, fault: fault)
    }

    static let conversationLineKeys = ["send", "expect", "afterMs", "subprotocols"]

    /// A `.ws` file: one JSON object a line, `{"send": message, "afterMs": 200}` or
    /// `{"expect": match}` (sends go out until the next expectation, which waits for a message of
    /// the app's that matches), and optionally `{"subprotocols": [...]}`. Blank lines are skipped.
    /// Errors name the line (`line 3`). Nil after reporting what is wrong.
    mutating func decodeConversation(_ bytes: [UInt8]) -> WebSocketScript? {
        let errorsBefore = diagnostics.count
        var steps: [WebSocketStep] = []
        var subprotocols: [String] = []
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let at = "line \(index + 1)"
            guard line.contains(where: { !JSONParser.isWhiteSpace($0) }) else { continue }
            guard let value = try? JSONParser.parse(Array(line)), case .object = value else {
                error(at, "expected one JSON object such as {\"send\": {\"text\": \"hello\"}} or {\"expect\": {\"text\": \"hi\"}}")
                continue
            }
            checkKeys(value, allowed: Self.conversationLineKeys, at: at)
            switch (value["send"], value["expect"], value["subprotocols"]) {
            case (let message?, nil, nil):
                let after = value["afterMs"].flatMap { milliseconds($0, at: at + ".afterMs") }
                if let message = decodeMessage(message, at: at + ".send") {
                    steps.append(.send(WebSocketMessage(message.payload, afterMilliseconds: after ?? message.afterMilliseconds)))
                }
            case (nil, let match?, nil):
                if let match = decodeMessageMatch(match, at: at + ".expect") { steps.append(.expect(match)) }
            case (nil, nil, let names?):
                if case .array(let items) = names,
                    items.allSatisfy({ if case .string(let name) = $0 { ASCII.isToken(name) } else { false } })
                {
                    subprotocols += items.compactMap { if case .string(let name) = $0 { name } else { nil } }
                } else {
                    error(at + ".subprotocols", "expected a list of names such as [\"chat.v1\"], found \(found(names))")
                }
            default:
                error(at, "expected one of \"send\", \"expect\" or \"subprotocols\"")
            }
        }
        guard diagnostics.count == errorsBefore else { return nil }
        return WebSocketScript(subprotocols: subprotocols, steps: steps)
    }

    /// One message or a list of them.
    mutating func messages(_ value: JSONValue, at: String) -> [WebSocketMessage] {
        guard case .array(let items) = value else {
            return decodeMessage(value, at: at).map { [$0] } ?? []
        }
        return items.enumerated().compactMap { index, item in decodeMessage(item, at: "\(at)[\(index)]") }
    }

    /// `{"text": …}`, `{"json": …}` or `{"base64": …}`, with an optional `afterMs`.
    mutating func decodeMessage(_ value: JSONValue, at: String) -> WebSocketMessage? {
        guard case .object = value else {
            error(at, "expected a message like {\"text\": \"hello\"}, {\"json\": {…}} or {\"base64\": \"AAE=\"}, found \(found(value))")
            return nil
        }
        checkKeys(value, allowed: Self.messageKeys, at: at)
        let after = value["afterMs"].flatMap { milliseconds($0, at: at + ".afterMs") }
        let kinds = ["text", "json", "base64"].filter { value[$0] != nil }
        guard kinds.count == 1 else {
            error(
                at,
                kinds.isEmpty
                    ? "expected \"text\", \"json\" or \"base64\""
                    : "has \(kinds.map { "\"\($0)\"" }.joined(separator: " and ")); a message has one")
            return nil
        }
        let payload: WebSocketMessage.Payload
        switch (value["text"], value["json"], value["base64"]) {
        case (let text?, _, _):
            guard case .string(let text) = text else {
                error(at + ".text", "expected a string, found \(found(text))")
                return nil
            }
            guard let text = templated(text, json: false, at: at + ".text") else { return nil }
            payload = text
        case (_, let json?, _):
            guard let json = templated(json.serialized, json: true, at: at + ".json") else { return nil }
            payload = json
        case (_, _, let encoded?):
            guard case .string(let text) = encoded, let bytes = Data(base64Encoded: text) else {
                error(at + ".base64", "expected bytes in base64 such as \"AAEC\", found \(found(encoded))")
                return nil
            }
            payload = .binary(Array(bytes))
        default:
            return nil
        }
        return WebSocketMessage(payload, afterMilliseconds: after)
    }

    /// Text as sent, or a template when it has `{{`.
    private mutating func templated(_ text: String, json: Bool, at: String) -> WebSocketMessage.Payload? {
        guard text.contains("{{") else { return .text(text) }
        do {
            return .template(try MessageTemplate(text: text, json: json))
        } catch {
            self.error(at, "is not a valid template: \(error)")
            return nil
        }
    }

    mutating func decodeRule(_ value: JSONValue, at: String) -> WebSocketRule? {
        guard case .object = value else {
            error(at, "expected a rule like {\"match\": {\"text\": \"ping\"}, \"reply\": [{\"text\": \"pong\"}]}, found \(found(value))")
            return nil
        }
        checkKeys(value, allowed: Self.ruleKeys, at: at)
        let errorsBefore = diagnostics.count
        let match = value["match"].map { decodeMessageMatch($0, at: at + ".match") } ?? .any
        let replies = value["reply"].map { messages($0, at: at + ".reply") } ?? []
        var broadcast = false
        if let raw = value["broadcast"] {
            if case .bool(let flag) = raw {
                broadcast = flag
            } else {
                error(at + ".broadcast", "expected true or false, found \(found(raw))")
            }
        }
        let close = value["close"].flatMap { decodeClose($0, at: at + ".close", allowed: ["code", "reason"]) }
        guard diagnostics.count == errorsBefore, let match else { return nil }
        return WebSocketRule(match: match, replies: replies, broadcast: broadcast, close: close)
    }

    /// `{"json": …}`, `{"text": …}`, `{"regex": …}` or `{"base64": …}` (a binary message of
    /// exactly these bytes); `{}` matches any message.
    mutating func decodeMessageMatch(_ value: JSONValue, at: String) -> WebSocketMatch? {
        if case .object(let members) = value, members.isEmpty { return .any }
        guard case .object(let members) = value, members.count == 1 else {
            error(
                at, "expected one of {\"json\": {…}}, {\"text\": \"…\"}, {\"regex\": \"…\"} or {\"base64\": \"…\"}, found \(found(value))")
            return nil
        }
        checkKeys(value, allowed: Self.messageMatchKeys, at: at)
        switch (members[0].key, members[0].value) {
        case ("json", let expected):
            return .json(expected)
        case ("text", .string(let text)):
            return .text(text)
        case ("regex", .string(let source)):
            do {
                return .regex(try MessagePattern(source))
            } catch {
                self.error(at + ".regex", "is not a valid regular expression: \(JSONText.quoted(source))")
                return nil
            }
        case ("base64", .string(let text)):
            guard let bytes = Data(base64Encoded: text) else {
                error(at + ".base64", "expected bytes in base64 such as \"AAEC\", found \(JSONText.quoted(text))")
                return nil
            }
            return .binary(Array(bytes))
        case (let key, let found) where Self.messageMatchKeys.contains(key):
            error(at + "." + key, "expected a string, found \(self.found(found))")
            return nil
        default:
            return nil
        }
    }

    /// `{"code": 1000, "reason": "bye"}`, with `afterMessages` or `afterMs` for the route's own.
    mutating func decodeEnding(_ value: JSONValue, at: String) -> WebSocketEnding? {
        guard let close = decodeClose(value, at: at, allowed: Self.endingKeys) else { return nil }
        let count = value["afterMessages"].flatMap { messageCount($0, at: at + ".afterMessages") }
        let after = value["afterMs"].flatMap { milliseconds($0, at: at + ".afterMs") }
        if count == nil && after == nil { error(at, "expected \"afterMessages\" or \"afterMs\": when to close") }
        return WebSocketEnding(close: close, afterMessages: count, afterMilliseconds: after)
    }

    mutating func decodeClose(_ value: JSONValue, at: String, allowed: [String]) -> WebSocketClose? {
        guard case .object = value else {
            error(at, "expected a close like {\"code\": 1000, \"reason\": \"bye\"}, found \(found(value))")
            return nil
        }
        checkKeys(value, allowed: allowed, at: at)
        var code: UInt16 = 1000
        if let raw = value["code"] {
            if case .number(let text) = raw, let number = UInt16(text), WebSocketClose.isSendable(number) {
                code = number
            } else {
                error(at + ".code", "expected a close code: \(WebSocketClose.sendableCodes), found \(found(raw))")
            }
        }
        let reason = string(value["reason"], at: at + ".reason") ?? ""
        // A close frame's payload is at most 125 bytes, two of them the code.
        if reason.utf8.count > 123 { error(at + ".reason", "is \(reason.utf8.count) bytes; a close reason fits in 123") }
        return WebSocketClose(code: code, reason: reason)
    }

    mutating func decodeWebSocketFault(_ value: JSONValue, at: String) -> WebSocketFault? {
        guard case .object = value else {
            error(at, "expected a fault like {\"kind\": \"drop\", \"afterMessages\": 3}, found \(found(value))")
            return nil
        }
        checkKeys(value, allowed: Self.webSocketFaultKeys, at: at)
        let kinds = WebSocketFault.Kind.allCases.map(\.rawValue)
        guard case .string(let name)? = value["kind"], let kind = WebSocketFault.Kind(rawValue: name) else {
            error(
                at + ".kind",
                "expected one of \(kinds.map { "\"\($0)\"" }.joined(separator: ", ")), found \(value["kind"].map(found) ?? "nothing")")
            return nil
        }
        let count = value["afterMessages"].flatMap { messageCount($0, at: at + ".afterMessages") }
        let after = value["afterMs"].flatMap { milliseconds($0, at: at + ".afterMs") }
        if count == nil && after == nil { error(at, "expected \"afterMessages\" or \"afterMs\": when the fault happens") }
        return WebSocketFault(kind: kind, afterMessages: count, afterMilliseconds: after)
    }

    mutating func milliseconds(_ value: JSONValue, at: String) -> Int? {
        if case .number(let text) = value, let number = Int(text), (0...Self.maximumDelayMilliseconds).contains(number) { return number }
        error(at, "expected milliseconds as a whole number 0-\(Self.maximumDelayMilliseconds), found \(found(value))")
        return nil
    }

    private mutating func messageCount(_ value: JSONValue, at: String) -> Int? {
        if case .number(let text) = value, let number = Int(text), number >= 1 { return number }
        error(at, "expected a count of messages (1 or more), found \(found(value))")
        return nil
    }
}
