import MockdLock
import Synchronization

/// The little state that changes while mockd runs: the runtime scenario (global or per
/// session), the sequences' places, the stubs tests added, what requests wrote to resources. It lives outside the snapshot so
/// that a reload keeps it.
package final class RuntimeState: Sendable {
    /// `--scenario`, or `default`.
    package let startupScenario: String
    private let scenarios = Lock<(global: String?, sessions: [String: String])>((nil, [:]))
    /// How many times each route with `responses` has answered, per session ("" = no session).
    private let sequenceCounters = Lock<[SequenceKey: Int]>([:])
    /// Counts changes a dashboard shows: scenarios set, resets, reloads (`noteChange`).
    private let changeCount = Atomic<UInt64>(0)
    /// Routes tests added (`POST /__mockd/stubs`), kept across reloads like the scenarios.
    package let stubs = StubTable()
    /// What requests wrote to resources, per session, kept across reloads like the stubs.
    package let resources: ResourceStore
    /// GraphQL queries clients sent with their hashes (automatic persisted queries), per session.
    package let persistedQueries = PersistedQueries()
    /// The simulator and app each session's pushes go to (`POST /__mockd/sessions {"device": …}`).
    private let pushTargets = Lock<[String: PushTarget]>([:])

    struct SequenceKey: Hashable {
        let session: String
        let route: String
    }

    /// `resourceSaving`: told of changes to resources' state without a session (`--state-dir`).
    package init(startupScenario: String = Scenario.default, resourceSaving: (any ResourceStateSaving)? = nil) {
        self.startupScenario = startupScenario
        self.resources = ResourceStore(saving: resourceSaving)
    }

    /// The scenario a request runs in: its `X-Mock-Scenario` header, else the runtime scenario
    /// of its session, else the global runtime scenario, else `--scenario`, else `default`.
    package func scenario(for request: MockRequest) -> String {
        request.askedScenario ?? runtimeScenario(session: request.session)
    }

    /// The runtime scenario for a session (or the global one when `session` is nil).
    package func runtimeScenario(session: String? = nil) -> String {
        scenarios.withLock { state in
            if let session, let scenario = state.sessions[session] { return scenario }
            return state.global ?? startupScenario
        }
    }

    package func setScenario(_ scenario: String, session: String? = nil) {
        scenarios.withLock { state in
            if let session { state.sessions[session] = scenario } else { state.global = scenario }
        }
        noteChange()
    }

    /// Where `session`'s pushes go; nil: nowhere of its own (mockd's defaults).
    package func pushTarget(session: String?) -> PushTarget? {
        guard let session else { return nil }
        return pushTargets.withLock { $0[session] }
    }

    /// `target` nil forgets the session's (its port closed).
    package func setPushTarget(_ target: PushTarget?, session: String) {
        pushTargets.withLock { $0[session] = target }
    }

    /// The runtime scenario of each session that has one.
    func sessionScenarios() -> [String: String] {
        scenarios.withLock { $0.sessions }
    }

    /// Grows on every change a dashboard shows (`GET /__mockd/events?state=`).
    package var changes: UInt64 { changeCount.load(ordering: .acquiring) }

    /// Something a dashboard shows changed: a scenario, or the configuration (a reload).
    package func noteChange() {
        changeCount.add(1, ordering: .acquiringAndReleasing)
    }

    /// Which of `count` responses answers this time, and counts the call. Each concurrent
    /// request gets its own position.
    func nextResponse(route: Route, session: String?) -> Int {
        let count = route.responses.count
        if count == 1 { return 0 }
        let key = SequenceKey(session: session ?? "", route: route.identity)
        let call = sequenceCounters.withLock { counters in
            let call = counters[key, default: 0]
            counters[key] = call + 1
            return call
        }
        switch route.sequence {
        case .repeatLast: return min(call, count - 1)
        case .cycle: return call % count
        }
    }

    /// Sequences start over (all sessions).
    package func resetSequences() {
        sequenceCounters.withLock { $0.removeAll() }
    }

    /// One session back to the start: its scenario, its sequences, its stubs and its resources'
    /// items; other sessions and the global state are untouched.
    package func reset(session: String) {
        scenarios.withLock { _ = $0.sessions.removeValue(forKey: session) }
        stubs.removeAll(session: session)
        resources.removeAll(session: session)
        persistedQueries.removeAll(session: session)
        sequenceCounters.withLock { counters in counters = counters.filter { $0.key.session != session } }
        noteChange()
    }

    /// Back to the start: no runtime scenario, no sessions, no stubs, sequences from their first
    /// response, resources as seeded.
    package func reset() {
        scenarios.withLock { $0 = (nil, [:]) }
        stubs.removeAll()
        resources.removeAll(session: nil)
        persistedQueries.removeAll(session: nil)
        resetSequences()
        noteChange()
    }
}

package enum Scenario {
    package static let `default` = "default"

    /// `default`, the startup scenario, and every scenario a route or an overlay folder names, sorted.
    package static func known(in snapshot: Snapshot, startup: String = Scenario.default) -> [String] {
        var names = Set(snapshot.scenarios)
        names.insert(Scenario.default)
        names.insert(startup)
        return names.sorted()
    }

    /// Why `name` names no scenario, or nil when it does (`--scenario` at start, `X-Mock-Scenario`).
    package static func unknown(_ name: String, in snapshot: Snapshot, startup: String = Scenario.default) -> String? {
        if name == Scenario.default || name == startup || snapshot.scenarioSet.contains(name) { return nil }
        return "unknown scenario \(JSONText.quoted(name)); known: \(known(in: snapshot, startup: startup).joined(separator: ", "))"
    }
}
