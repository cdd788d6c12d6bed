import Synchronization

/// The little state that changes while mockd runs: the runtime scenario (global or per
/// session). It lives outside the snapshot so that a reload keeps it.
public final class RuntimeState: Sendable {
    /// `--scenario`, or `default`.
    public let startupScenario: String
    private let scenarios = Mutex<(global: String?, sessions: [String: String])>((nil, [:]))

    public init(startupScenario: String = Scenario.default) {
        self.startupScenario = startupScenario
    }

    /// The scenario a request runs in: its `X-Mock-Scenario` header, else the runtime scenario
    /// of its session, else the global runtime scenario, else `--scenario`, else `default`.
    public func scenario(for request: MockRequest) -> String {
        if let requested = request.requestedScenario { return requested }
        let session = request.session
        return scenarios.withLock { state in
            if let session, let scenario = state.sessions[session] { return scenario }
            return state.global ?? startupScenario
        }
    }

    /// The runtime scenario for a session (or the global one when `session` is nil).
    public func runtimeScenario(session: String? = nil) -> String {
        scenarios.withLock { state in
            if let session, let scenario = state.sessions[session] { return scenario }
            return state.global ?? startupScenario
        }
    }

    public func setScenario(_ scenario: String, session: String? = nil) {
        scenarios.withLock { state in
            if let session { state.sessions[session] = scenario } else { state.global = scenario }
        }
    }

    /// Back to the start: no runtime scenario, no sessions.
    public func reset() {
        scenarios.withLock { $0 = (nil, [:]) }
    }
}

public enum Scenario {
    public static let `default` = "default"
}
