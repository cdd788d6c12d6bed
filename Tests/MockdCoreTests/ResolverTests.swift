import Foundation
import MockdCore
import Testing

@Suite("Resolver")
struct ResolverTests {
    static let files: [String: String] = [
        "users/mock_api_users_get.json": #"[{"id": 1}, {"id": 2}]"#,
        "users/mock_api_user_123_get.json": #"{"id": 123}"#,
        "mock_api_v1_sleep_post.json": #"{"slept": true}"#,
        "mock_api_episodes_get.json": #"{"episodes": [1, 2]}"#,
        "mock_api_episodes_head.json": #"{"head": true}"#,
        "scenarios/empty/mock_api_users_get.json": "[]",
        "scenarios/error/mock_api_user_123_get.json": #"{"error": "boom"}"#,
    ]

    static func bytes(_ path: String) -> [UInt8] { Array(files[path]!.utf8) }

    @Test(
        "the naming table",
        arguments: [
            ("GET", "/api/users", "users/mock_api_users_get.json"),
            ("GET", "/api/user/123", "users/mock_api_user_123_get.json"),
            ("POST", "/api/v1/sleep", "mock_api_v1_sleep_post.json"),
            ("GET", "/api/users/", "users/mock_api_users_get.json"),
            ("HEAD", "/api/users", "users/mock_api_users_get.json"),
        ])
    func resolve_ServesTheConventionFile(method: String, path: String, fixture: String) throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let answer = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(.make(method: method, path: path))
            #expect(answer.status == 200)
            #expect(answer.preparedBody == Self.bytes(fixture))
            #expect(answer.source == "file " + fixture)
            #expect(answer.scenario == "default")
        }
    }

    @Test func resolve_HEADPrefersAHeadFileOverTheGetFile() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let answer = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(.make(method: "HEAD", path: "/api/episodes"))
            #expect(answer.preparedBody == Self.bytes("mock_api_episodes_head.json"))
        }
    }

    @Test func resolve_AMissIsA404Report() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let answer = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(.make(method: "GET", path: "/api/nothing"))
            #expect(answer.status == 404)
            #expect(answer.source == "404")
            #expect(answer.built?.headers.first(named: "Content-Type") == "application/json; charset=utf-8")
        }
    }

    @Test func resolve_MethodMatters() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let resolver = Resolver(snapshot: snapshot, state: RuntimeState())
            #expect(resolver.resolve(.make(method: "POST", path: "/api/users")).status == 404)
            #expect(resolver.resolve(.make(method: "GET", path: "/api/v1/sleep")).status == 404)
        }
    }

    // MARK: - Scenarios

    @Test func resolve_ScenarioHeaderPicksTheOverlay() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let resolver = Resolver(snapshot: snapshot, state: RuntimeState())
            let answer = resolver.resolve(.make(path: "/api/users", scenario: "empty"))
            #expect(answer.preparedBody == Self.bytes("scenarios/empty/mock_api_users_get.json"))
            #expect(answer.scenario == "empty")
            // The same request without the header gets the base file.
            #expect(resolver.resolve(.make(path: "/api/users")).preparedBody == Self.bytes("users/mock_api_users_get.json"))
        }
    }

    @Test func resolve_ScenarioFallsBackToBaseFiles() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let resolver = Resolver(snapshot: snapshot, state: RuntimeState())
            // `empty` has no overlay for /api/user/123: the base file answers.
            let answer = resolver.resolve(.make(path: "/api/user/123", scenario: "empty"))
            #expect(answer.preparedBody == Self.bytes("users/mock_api_user_123_get.json"))
            #expect(answer.scenario == "empty")
            // An unknown scenario also falls back (with a warning header, so the bytes are copied).
            let unknown = resolver.resolve(.make(path: "/api/users", scenario: "nope"))
            #expect(unknown.built?.body == Self.bytes("users/mock_api_users_get.json"))
            #expect(unknown.source == "file users/mock_api_users_get.json")
            #expect(unknown.warning != nil)
        }
    }

    @Test func resolve_EmptyScenarioHeaderMeansNone() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let resolver = Resolver(snapshot: snapshot, state: RuntimeState())
            let empty = resolver.resolve(.make(path: "/api/users", scenario: ""))
            #expect(empty.scenario == "default")
            #expect(empty.preparedBody == Self.bytes("users/mock_api_users_get.json"))
        }
    }

    @Test func resolve_HEADFallsBackToTheOverlayGetFile() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let answer = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(
                .make(method: "HEAD", path: "/api/users", scenario: "empty"))
            #expect(answer.preparedBody == Self.bytes("scenarios/empty/mock_api_users_get.json"))
        }
    }

    @Test func resolve_StartupScenarioApplies() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let resolver = Resolver(snapshot: snapshot, state: RuntimeState(startupScenario: "error"))
            let answer = resolver.resolve(.make(path: "/api/user/123"))
            #expect(answer.scenario == "error")
            #expect(answer.preparedBody == Self.bytes("scenarios/error/mock_api_user_123_get.json"))
            // The header still wins over --scenario.
            #expect(
                resolver.resolve(.make(path: "/api/user/123", scenario: "default")).preparedBody
                    == Self.bytes("users/mock_api_user_123_get.json"))
        }
    }

    @Test func resolve_RuntimeScenarioAppliesGloballyAndPerSession() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let state = RuntimeState()
            let resolver = Resolver(snapshot: snapshot, state: state)
            state.setScenario("empty", session: "sim-3")
            #expect(
                resolver.resolve(.make(path: "/api/users", session: "sim-3")).preparedBody
                    == Self.bytes("scenarios/empty/mock_api_users_get.json"))
            #expect(
                resolver.resolve(.make(path: "/api/users", session: "sim-4")).preparedBody == Self.bytes("users/mock_api_users_get.json"))
            #expect(resolver.resolve(.make(path: "/api/users")).preparedBody == Self.bytes("users/mock_api_users_get.json"))
            state.setScenario("empty")
            #expect(resolver.resolve(.make(path: "/api/users")).preparedBody == Self.bytes("scenarios/empty/mock_api_users_get.json"))
            // The request header beats the runtime scenario.
            #expect(
                resolver.resolve(.make(path: "/api/users", scenario: "default")).preparedBody == Self.bytes("users/mock_api_users_get.json")
            )
            state.reset()
            #expect(
                resolver.resolve(.make(path: "/api/users", session: "sim-3")).preparedBody == Self.bytes("users/mock_api_users_get.json"))
        }
    }

    /// Swift compares strings by canonical equivalence, so a file saved with a decomposed name
    /// (as macOS file systems may) answers a request for the composed path.
    @Test func resolve_MatchesCanonicallyEquivalentUnicode() throws {
        try withSnapshot(["mock_cafe\u{301}_get.json": #"{"cafe": true}"#]) { snapshot, _ in
            let answer = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(.make(path: "/caf\u{E9}"))
            #expect(answer.status == 200)
        }
    }
}

extension ResolverTests {
    /// A misspelt X-Mock-Scenario is answered with the defaults, as before, and says so.
    @Test func resolve_AnUnknownScenarioHeaderWarnsListingTheKnownOnes() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let resolver = Resolver(snapshot: snapshot, state: RuntimeState())
            let plain = resolver.resolve(.make(path: "/api/users"))
            let misspelt = resolver.resolve(.make(path: "/api/users", scenario: "emtpy"))
            #expect(plain.warning == nil)
            #expect(misspelt.warning == #"unknown scenario "emtpy"; known: default, empty, error"#)
            #expect(misspelt.status == 200)
            #expect(misspelt.source == plain.source)
            #expect(misspelt.built?.body == plain.preparedBody)
            #expect(misspelt.built?.headers.first(named: "X-Mockd-Warning") == misspelt.warning)
            #expect(resolver.resolve(.make(path: "/api/users", scenario: "empty")).warning == nil)
            #expect(resolver.resolve(.make(path: "/api/nothing", scenario: "emtpy")).built?.headers.first(named: "X-Mockd-Warning") != nil)
        }
    }

    @Test func scenario_UnknownNamesAreToldFromKnownOnes() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            #expect(Scenario.unknown("default", in: snapshot) == nil)
            #expect(Scenario.unknown("error", in: snapshot) == nil)
            #expect(Scenario.unknown("staging", in: snapshot, startup: "staging") == nil)
            #expect(Scenario.unknown("emtpy", in: snapshot) == #"unknown scenario "emtpy"; known: default, empty, error"#)
        }
    }
}
