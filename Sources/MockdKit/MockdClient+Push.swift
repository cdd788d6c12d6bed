public import Foundation

/// Pushes to a simulator, sent by mockd (`POST /__mockd/push`): mockd runs beside the simulators
/// and runs `xcrun simctl push`, which a test inside the simulator cannot.
extension MockdClient {
    /// Sends the payload file `pushes/NAME.apns` (as the session's scenario sees it) to a
    /// simulator: `POST /__mockd/push`.
    ///
    /// ```swift
    /// try await mockd.push("new-message", session: session.id)
    /// XCTAssert(app.otherElements["Notification"].waitForExistence(timeout: 10))
    /// ```
    ///
    /// - Parameters:
    ///   - name: The payload file's name, without `.apns`.
    ///   - device: A simulator's UDID, or `"booted"`; `nil`: the session's, else `booted`.
    ///   - bundleID: The app; `nil`: the session's, else the payload's `"Simulator Target Bundle"`, else `--push-bundle-id`.
    ///   - session: The session it is for: its simulator, its scenario, its journal.
    ///   - afterMs: Send it this many milliseconds later; the call answers at once (`result` `scheduled`).
    /// - Returns: What simctl said.
    /// - Throws: ``MockdError/http(status:message:body:)``: 502 with simctl's message when it failed,
    ///   501 when mockd has no `xcrun` and no `--push-command`.
    @discardableResult
    public func push(
        _ name: String, device: String? = nil, bundleID: String? = nil, session: String? = nil, afterMs: Int? = nil
    ) async throws -> MockdPushResult {
        try await push(["name": name], device: device, bundleID: bundleID, session: session, afterMs: afterMs)
    }

    /// Sends `payload` (a JSON object in the `.apns` form, `{"aps": {…}}`) as it is: `POST /__mockd/push`.
    @discardableResult
    public func push(
        payload: Data, device: String? = nil, bundleID: String? = nil, session: String? = nil, afterMs: Int? = nil
    ) async throws -> MockdPushResult {
        let object = try JSONSerialization.jsonObject(with: payload)
        return try await push(["payload": object], device: device, bundleID: bundleID, session: session, afterMs: afterMs)
    }

    private func push(
        _ what: [String: Any], device: String?, bundleID: String?, session: String?, afterMs: Int?
    ) async throws -> MockdPushResult {
        var body = what
        if let device { body["device"] = device }
        if let bundleID { body["bundleId"] = bundleID }
        if let session { body["session"] = session }
        if let afterMs { body["afterMs"] = afterMs }
        let data = try JSONSerialization.data(withJSONObject: body)
        return try decode(MockdPushResult.self, from: await send("POST", "/__mockd/push", body: data))
    }
}

/// What mockd answered to a push: where it went and what simctl said.
public struct MockdPushResult: Sendable, Equatable, Decodable {
    /// The payload file's name; `nil` for a payload given whole.
    public var name: String?
    public var device: String
    public var bundleId: String
    public var session: String?
    /// `sent`, or `scheduled` for a push with `afterMs` (its outcome is in the journal, kind ``SourceKind/push``).
    public var result: String
    /// simctl's exit status; `nil` when scheduled.
    public var exitStatus: Int?
    public var stdout: String?
    public var stderr: String?
}
