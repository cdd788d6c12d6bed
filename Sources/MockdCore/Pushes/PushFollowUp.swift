/// A route's `"then": {"push": "reply", "afterMs": 800}`: after mockd answers, the payload
/// `pushes/reply.apns` goes to the simulator of the request's session, as the backend mockd
/// stands in for would send it. Decided by the core with the answer (`Resolution.thenPush`);
/// the adapter sends it once the answer is on its way.
package struct PushFollowUp: Sendable {
    /// The payload file's name.
    package let name: String
    package let afterMilliseconds: Int
    /// The simulator and app when the route names them; else the session's, then the defaults.
    package let device: String?
    package let bundleID: String?

    /// The push for `request`: the payload as the request's scenario sees it, rendered over what
    /// the route's own templates read (`path`, `query`, `headers`, `json`, `now`, `uuid`); or why
    /// none can be sent, for the answer's warning.
    func order(
        for request: MockRequest, parameters: [String: String], scenario: String, snapshot: Snapshot, state: RuntimeState,
        defaultBundle: String?, trigger: Origin
    ) -> Result<PushOrder, ErrorAnswer> {
        guard let payload = snapshot.pushes.payload(name, scenario: scenario) else {
            return .failure(ErrorAnswer(404, "no push payload \(JSONText.quoted(name)) (pushes/\(name).apns) in scenario \(scenario)"))
        }
        let target = PushTarget.resolve(
            device: device, bundleID: bundleID, session: state.pushTarget(session: request.session), payloadBundle: payload.bundleID,
            defaultBundle: defaultBundle)
        return target.map { device, bundle in
            PushOrder(
                name: name, device: device, bundleID: bundle,
                payload: payload.render(ResponseTemplate.context(request: request, parameters: parameters)),
                afterMilliseconds: afterMilliseconds, session: request.session, trigger: trigger.label,
                scenario: scenario)
        }
    }
}

/// Reading a response's `"then"`.
extension RouteDecoder {
    static let thenKeys = ["push", "afterMs", "device", "bundleId"]

    /// `"then": {"push": NAME, "afterMs": N, "device": …, "bundleId": …}`; nil after reporting what is wrong.
    mutating func decodeThen(_ value: JSONValue, at: String) -> PushFollowUp? {
        guard case .object = value else {
            error(at, #"expected an object like {"push": "reply", "afterMs": 800}, found "# + found(value))
            return nil
        }
        checkKeys(value, allowed: Self.thenKeys, at: at)
        guard case .string(let name)? = value["push"], !name.isEmpty, !name.contains("/") else {
            error(at + ".push", "expected the name of a payload file pushes/NAME.apns, found \(value["push"].map(found) ?? "nothing")")
            return nil
        }
        var afterMilliseconds = 0
        if let raw = value["afterMs"] {
            guard case .number(let text) = raw, let milliseconds = Int(text), (0...Self.maximumDelayMilliseconds).contains(milliseconds)
            else {
                error(at + ".afterMs", "expected a whole number of milliseconds 0-\(Self.maximumDelayMilliseconds), found \(found(raw))")
                return nil
            }
            afterMilliseconds = milliseconds
        }
        var texts: [String: String] = [:]
        for key in ["device", "bundleId"] {
            guard let raw = value[key] else { continue }
            guard case .string(let text) = raw, PushTarget.isArgument(text) else {
                error(at + "." + key, "expected a non-empty string not starting with '-', found \(found(raw))")
                return nil
            }
            texts[key] = text
        }
        return PushFollowUp(name: name, afterMilliseconds: afterMilliseconds, device: texts["device"], bundleID: texts["bundleId"])
    }
}
