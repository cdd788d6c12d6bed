/// `POST /__mockd/sessions`, `GET /__mockd/sessions`, `DELETE /__mockd/sessions/ID`: a session
/// is a base URL. Each has a port of its own, and every request that arrives there belongs to
/// it as if it carried `X-Mock-Session`, so an app under test needs no header of its own.
extension AdminAPI {
    func openSession(_ request: MockRequest, _ context: Context) -> AdminStep {
        guard context.sessionPorts != nil else { return .answer(refuse(ErrorAnswer(501, "this server cannot open session ports"))) }
        var body = JSONValue.object([])
        if !request.body.allSatisfy(JSONParser.isWhiteSpace) {
            guard let parsed = try? JSONParser.parse(request.body), case .object = parsed else {
                return .answer(
                    refuse(ErrorAnswer(400, #"expected no body, or a JSON body like {"id": "sim-3", "scenario": "empty"} (both optional)"#))
                )
            }
            body = parsed
        }
        if let refusal = AdminKeys.sessions.refusal(body) { return .answer(refusal) }
        var id: String?
        if let raw = body["id"] {
            guard case .string(let text) = raw, SessionID.isValid(text) else {
                return .answer(
                    refuse(ErrorAnswer(400, "\"id\" must be 1-64 letters, digits, '-', '_' or '.', found \(raw.serialized)")))
            }
            id = text
        }
        var scenario: String?
        if let raw = body["scenario"] {
            let known = knownScenarios(context)
            guard case .string(let name) = raw, known.contains(name) else {
                return .answer(
                    refuse(ErrorAnswer(400, "unknown scenario \(raw.serialized)", details: [("known", .array(known.map { .string($0) }))])))
            }
            scenario = name
        }
        var pushTarget: PushTarget?
        for key in ["device", "bundleId"] {
            guard let raw = body[key] else { continue }
            guard case .string(let value) = raw, PushTarget.isArgument(value) else {
                return .answer(
                    refuse(ErrorAnswer(400, "\"\(key)\" must be a non-empty string not starting with '-', found \(raw.serialized)")))
            }
            var target = pushTarget ?? PushTarget()
            if key == "device" { target.device = value } else { target.bundleID = value }
            pushTarget = target
        }
        return .openSessionPort(id: id) { [scenario, pushTarget] opened in
            switch opened {
            case .failure(let refusal):
                return .answer(refuse(refusal))
            case .success(let port):
                context.state.reset(session: port.id)  // a new session starts clean, even with a reused id
                if let scenario { context.state.setScenario(scenario, session: port.id) }
                // The simulator this session's app runs on: its pushes go there.
                context.state.setPushTarget(pushTarget, session: port.id)
                return .answer(json(201, describe(port, context)))
            }
        }
    }

    func listSessions(_ context: Context) -> BuiltResponse {
        json(200, ["sessions": .array((context.sessionPorts ?? []).map { describe($0, context) })])
    }

    /// Closes the port and forgets the session's scenario, sequences and stubs; its journal
    /// entries stay until the journal is cleared (they are what the test checks).
    func closeSession(_ request: MockRequest, _ context: Context) -> AdminStep {
        let id = String(request.path.dropFirst("/__mockd/sessions/".count))
        let missing = refuse(ErrorAnswer(404, "no session \(JSONText.quoted(id)); GET /__mockd/sessions lists them"))
        guard context.sessionPorts != nil else { return .answer(missing) }
        return .closeSessionPort(id: id) { closed in
            guard closed else { return .answer(missing) }
            context.state.reset(session: id)
            context.state.setPushTarget(nil, session: id)
            return .answer(json(200, ["id": .string(id), "deleted": true]))
        }
    }

    func describe(_ port: SessionPort, _ context: Context) -> JSONValue {
        let scenarios = context.state.sessionScenarios()
        let target = context.state.pushTarget(session: port.id)
        return .object([
            ("id", .string(port.id)), ("port", .number(port.port)), ("baseURL", .string(port.baseURL)),
            ("scenario", scenarios[port.id].map { .string($0) } ?? .null),
            ("device", target?.device.map { .string($0) } ?? .null), ("bundleId", target?.bundleID.map { .string($0) } ?? .null),
        ])
    }

    /// What a session port answers on `/__mockd/`: the admin API stays on the main port.
    static func notOnSessionPort(_ request: MockRequest) -> BuiltResponse {
        AdminAPI().refuse(
            ErrorAnswer(404, "no admin API on a session's port: \(request.method) \(request.path) goes to mockd's main port"))
    }
}

/// A session's port, as the admin API lists it.
package struct SessionPort: Sendable {
    package let id: String
    package let port: Int
    /// `http://127.0.0.1:53121`: what the app under test is given as its base URL.
    package let baseURL: String

    package init(id: String, port: Int, baseURL: String) {
        self.id = id
        self.port = port
        self.baseURL = baseURL
    }
}

/// The ids a session may have.
enum SessionID {
    /// Ids go into URLs and headers as they are.
    static func isValid(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            }
    }
}
