#if canImport(FoundationEssentials)
    import FoundationEssentials  // base64 only
#else
    import Foundation
#endif

/// `POST /__mockd/ws/send`, `GET /__mockd/ws/connections`, `DELETE /__mockd/ws/connections/ID`:
/// a test pushes to its app's open WebSocket connections, lists them, closes one. The connections
/// are the adapter's; each call names what to do with them (`AdminStep.webSockets`).
extension AdminAPI {
    func sendWebSocket(_ request: MockRequest, _ context: Context) -> AdminStep {
        let expected = #"expected a JSON body like {"session": "sim-3", "path": "/ws/chat", "message": {"json": {…}}}"#
        guard let body = try? JSONParser.parse(request.body), case .object = body else {
            return .answer(refuse(ErrorAnswer(400, expected)))
        }
        if let refusal = AdminKeys.webSocketSend.refusal(body) { return .answer(refusal) }
        guard case .string(let path)? = body["path"], path.hasPrefix("/") else {
            return .answer(refuse(ErrorAnswer(400, "\"path\" must be the path the app opened, such as \"/ws/chat\"; \(expected)")))
        }
        var session: String?
        switch body["session"] {
        case nil, .null?: session = nil
        case .string(let id)?: session = id
        case let other?: return .answer(refuse(ErrorAnswer(400, "\"session\" must be a string, found \(other.serialized)")))
        }
        guard let raw = body["message"], let message = Self.webSocketMessage(raw) else {
            return .answer(refuse(ErrorAnswer(400, #""message" must be {"text": "…"}, {"json": …} or {"base64": "…"}; "# + expected)))
        }
        return .webSockets(.send(message, session: session, path: path)) { [session] report in
            guard case .sent(let count) = report, count > 0 else {
                let whose = session.map { "of session \(JSONText.quoted($0))" } ?? "without a session"
                return .answer(
                    refuse(
                        ErrorAnswer(
                            404, "no open WebSocket connection \(whose) on \(path); GET /__mockd/ws/connections lists them",
                            details: [("sent", 0)])))
            }
            return .answer(json(200, ["sent": .number(count)]))
        }
    }

    func listWebSockets(_ request: MockRequest, _ context: Context) -> AdminStep {
        if let refusal = AdminKeys.webSocketConnections.refusal(request) { return .answer(refusal) }
        let session = request.query.first { $0.name == "session" }.map { $0.value ?? "" }
        return .webSockets(.list(session: session)) { report in
            guard case .connections(let open) = report else { return .answer(json(200, ["connections": []])) }
            return .answer(json(200, ["connections": .array(open.map(\.json))]))
        }
    }

    func closeWebSocket(_ request: MockRequest, _ context: Context) -> AdminStep {
        if let refusal = AdminKeys.webSocketClose.refusal(request) { return .answer(refusal) }
        let text = String(request.path.dropFirst("/__mockd/ws/connections/".count))
        let missing = refuse(
            ErrorAnswer(404, "no open WebSocket connection \(JSONText.quoted(text)); GET /__mockd/ws/connections lists them"))
        guard let id = Int(text) else { return .answer(missing) }
        var code: UInt16 = 1000
        if let raw = request.query.first(where: { $0.name == "code" })?.value {
            guard let number = UInt16(raw), WebSocketClose.isSendable(number)
            else {
                return .answer(
                    refuse(ErrorAnswer(400, "code must be a close code: \(WebSocketClose.sendableCodes), found \(JSONText.quoted(raw))")))
            }
            code = number
        }
        let reason = request.query.first(where: { $0.name == "reason" })?.value ?? ""
        guard reason.utf8.count <= 123 else { return .answer(refuse(ErrorAnswer(400, "a close reason fits in 123 bytes"))) }
        return .webSockets(.close(id: id, code: code, reason: reason)) { [code] report in
            guard case .closed(true) = report else { return .answer(missing) }
            return .answer(json(200, ["id": .number(id), "closing": true, "code": .number(Int(code))]))
        }
    }

    /// `{"text": …}`, `{"json": …}` (sent as compact text) or `{"base64": …}`.
    static func webSocketMessage(_ value: JSONValue) -> WebSocketPayload? {
        guard case .object(let members) = value, members.count == 1 else { return nil }
        switch (members[0].key, members[0].value) {
        case ("text", .string(let text)): return .text(text)
        case ("json", let json): return .text(json.serialized)
        case ("base64", .string(let encoded)): return Data(base64Encoded: encoded).map { .binary(Array($0)) }
        default: return nil
        }
    }
}

/// What an admin call asks of the open WebSocket connections.
package enum WebSocketCommand: Sendable, Equatable {
    /// To every open connection of `session` (nil: those without one) on `path`.
    case send(WebSocketPayload, session: String?, path: String)
    /// The open connections; `session` nil: all of them.
    case list(session: String?)
    /// Start the close handshake of one.
    case close(id: Int, code: UInt16, reason: String)
}

/// What the adapter found carrying out a `WebSocketCommand`.
package enum WebSocketReport: Sendable {
    case sent(Int)
    case connections([WebSocketConnectionInfo])
    case closed(Bool)
}

/// An open connection, as `GET /__mockd/ws/connections` lists it.
package struct WebSocketConnectionInfo: Sendable {
    package let id: Int
    package let session: String?
    package let path: String
    package let opened: String
    package let messagesIn: Int
    package let messagesOut: Int

    package init(id: Int, session: String?, path: String, opened: String, messagesIn: Int, messagesOut: Int) {
        self.id = id
        self.session = session
        self.path = path
        self.opened = opened
        self.messagesIn = messagesIn
        self.messagesOut = messagesOut
    }

    var json: JSONValue {
        .object([
            ("id", .number(id)), ("session", session.map { .string($0) } ?? .null), ("path", .string(path)), ("opened", .string(opened)),
            ("messagesIn", .number(messagesIn)), ("messagesOut", .number(messagesOut)),
        ])
    }
}
