/// `POST /__mockd/push`: a notification sent to a simulator as the backend mockd stands in for
/// would send it, by the name of a payload file or given whole. The core decides the payload,
/// the simulator and the app; the adapter runs the push command and the answer says what it said.
extension AdminAPI {
    func push(_ request: MockRequest, _ context: Context) -> AdminStep {
        let expected = ErrorAnswer(
            400,
            #"expected a JSON body like {"name": "new-message"} or {"payload": {"aps": {"alert": "Hi"}}}, "#
                + #"with "device", "bundleId", "afterMs" and "session" if needed"#)
        guard let body = try? JSONParser.parse(request.body), case .object = body else { return .answer(refuse(expected)) }
        if let refusal = AdminKeys.push.refusal(body) { return .answer(refusal) }
        if let why = context.pushRefusal { return .answer(refuse(ErrorAnswer(501, why))) }
        let order: PushOrder
        switch pushOrder(body, context) {
        case .failure(let refusal): return .answer(refuse(refusal))
        case .success(let decided): order = decided
        }
        return .push(order) { delivery in
            switch delivery {
            case .scheduled:
                return .answer(
                    json(202, .object(Self.describe(order) + [("result", "scheduled"), ("afterMs", .number(order.afterMilliseconds))])))
            case .done(let outcome):
                return .answer(json(outcome.succeeded ? 201 : 502, .object(Self.describe(order) + outcome.members)))
            }
        }
    }

    /// The push a call's body asks for, or the 400 (404 for an unknown payload) saying what is wrong.
    func pushOrder(_ body: JSONValue, _ context: Context) -> Result<PushOrder, ErrorAnswer> {
        var texts: [String: String] = [:]
        for key in ["name", "device", "bundleId", "session"] {
            guard let raw = body[key] else { continue }
            guard case .string(let value) = raw, !value.isEmpty else {
                return .failure(ErrorAnswer(400, "\"\(key)\" must be a non-empty string, found \(raw.serialized)"))
            }
            texts[key] = value
        }
        let name = texts["name"], session = texts["session"]
        var afterMilliseconds = 0
        if let raw = body["afterMs"] {
            guard case .number(let number) = raw, let value = Int(number), (0...RouteDecoder.maximumDelayMilliseconds).contains(value)
            else {
                return .failure(
                    ErrorAnswer(
                        400,
                        "\"afterMs\" must be a whole number from 0 to \(RouteDecoder.maximumDelayMilliseconds), found \(raw.serialized)"))
            }
            afterMilliseconds = value
        }
        let payload: [UInt8], payloadBundle: String?
        var scenario = ""
        switch (name, body["payload"]) {
        case (let name?, nil):
            scenario = context.state.runtimeScenario(session: session)
            guard let file = context.snapshot.pushes.payload(name, scenario: scenario) else {
                return .failure(
                    ErrorAnswer(
                        404, "no push payload \(JSONText.quoted(name)): expected a file pushes/\(name).apns under the root",
                        details: [("known", .array(context.snapshot.pushes.names.map { .string($0) }))]))
            }
            payload = file.render(PushPayload.clockValues())
            payloadBundle = file.bundleID
        case (nil, let given?):
            guard case .object = given else {
                return .failure(ErrorAnswer(400, "\"payload\" must be a JSON object like {\"aps\": {…}}, found \(given.serialized)"))
            }
            payload = Array(given.serialized.utf8)
            if case .string(let text)? = given[PushPayload.bundleKey], !text.isEmpty { payloadBundle = text } else { payloadBundle = nil }
        case (.some, .some):
            return .failure(ErrorAnswer(400, "give \"name\" (a payload file) or \"payload\" (the payload itself), not both"))
        case (nil, nil):
            return .failure(
                ErrorAnswer(400, #"say what to push: "name" (a file pushes/NAME.apns) or "payload" (the JSON itself)"#))
        }
        let target = PushTarget.resolve(
            device: texts["device"], bundleID: texts["bundleId"], session: context.state.pushTarget(session: session),
            payloadBundle: payloadBundle,
            defaultBundle: context.pushBundleID)
        return target.map { [scenario] device, bundle in
            PushOrder(
                name: name, device: device, bundleID: bundle, payload: payload, afterMilliseconds: afterMilliseconds, session: session,
                scenario: scenario)
        }
    }

    /// What the answer and the journal say of an order besides its outcome.
    static func describe(_ order: PushOrder) -> [(key: String, value: JSONValue)] {
        [
            ("name", order.name.map { .string($0) } ?? .null), ("device", .string(order.device)), ("bundleId", .string(order.bundleID)),
            ("session", order.session.map { .string($0) } ?? .null),
        ]
    }
}

extension PushTarget {
    /// The simulator and app a push goes to: what the call names, else its session's, else
    /// `booted` and the payload's `"Simulator Target Bundle"`, else `--push-bundle-id`. Either is
    /// handed to simctl as an argument, so one that would read as an option is refused.
    static func resolve(
        device: String?, bundleID: String?, session: PushTarget?, payloadBundle: String?, defaultBundle: String?
    ) -> Result<(String, String), ErrorAnswer> {
        let device = device ?? session?.device ?? "booted"
        guard let bundle = bundleID ?? session?.bundleID ?? payloadBundle ?? defaultBundle else {
            return .failure(
                ErrorAnswer(
                    400,
                    #"no app to push to: give "bundleId", a "Simulator Target Bundle" in the payload, a session's "bundleId", or start mockd with --push-bundle-id"#
                ))
        }
        for (key, value) in [("device", device), ("bundleId", bundle)] where !isArgument(value) {
            return .failure(
                ErrorAnswer(400, "\"\(key)\" must not start with '-' or hold control characters, found \(JSONText.quoted(value))"))
        }
        return .success((device, bundle))
    }

    /// Safe as one of simctl's arguments: no option, no line break.
    static func isArgument(_ value: String) -> Bool {
        !value.isEmpty && !value.hasPrefix("-") && !value.utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }
}

/// What came of a push an admin call ordered: sent (or tried) now, or to be sent after its
/// `afterMs`, whose outcome only the journal will hold.
package enum PushDelivery: Sendable {
    case done(PushOutcome)
    case scheduled
}
