import Foundation
import MockdCore
import Testing

/// What the resolver weighs besides the snapshot, all in one decision: a preflight and the admin
/// API come first, a mock next, then the upstream; the 404 report only when nothing else answers.
@Suite("Resolution precedence")
struct ResolutionPolicyTests {
    static let files: [String: String] = [
        "users/mock_api_users_get.json": #"[{"id": 1}]"#
    ]

    static func resolver(_ snapshot: Snapshot, _ policy: ResolutionPolicy, misses: NotFoundCache = NotFoundCache()) -> Resolver {
        Resolver(snapshot: snapshot, state: RuntimeState(), policy: policy, misses: misses)
    }

    @Test func withAnUpstream_AMissIsForwardedAndNoReportIsBuilt() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let resolver = Self.resolver(snapshot, ResolutionPolicy(forwardsMisses: true))
            guard case .forward(let scenario, _, _) = resolver.resolve(.make(path: "/api/none", scenario: "empty")) else {
                Issue.record("a miss was not forwarded")
                return
            }
            #expect(scenario == "empty")
            // An unknown method too: the upstream may know it.
            guard case .forward = resolver.resolve(.make(method: "BREW", path: "/api/none")) else {
                Issue.record("an unknown method was not forwarded")
                return
            }
            // A mock still wins over the upstream.
            #expect(resolver.resolve(.make(path: "/api/users")).status == 200)
        }
    }

    @Test func withoutAnUpstream_AMissIsThe404Report() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let resolution = Self.resolver(snapshot, ResolutionPolicy()).resolve(.make(path: "/api/none"))
            guard case .respond(let reply) = resolution else {
                Issue.record("expected the report, got \(resolution)")
                return
            }
            #expect(reply.status == 404)
            #expect(reply.source == "404")
        }
    }

    @Test func aPreflightIsAnsweredOnlyWithCORS() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let preflight = MockRequest.make(
                method: "OPTIONS", path: "/api/users",
                headers: [
                    HTTPHeader("Access-Control-Request-Method", "PUT"),
                    HTTPHeader("Access-Control-Request-Headers", "X-Token"),
                ])
            let allowed = Self.resolver(snapshot, ResolutionPolicy(answersPreflight: true)).resolve(preflight)
            guard case .respond(let reply) = allowed, case .built(let built) = reply.response else {
                Issue.record("expected a built 204, got \(allowed)")
                return
            }
            #expect(built.status == 204)
            #expect(built.source == "cors preflight")
            #expect(built.headers.first(named: "Access-Control-Allow-Methods") == "PUT")
            #expect(built.headers.first(named: "Access-Control-Allow-Headers") == "X-Token")
            #expect(built.headers.first(named: "Access-Control-Max-Age") == "600")
            // Without --cors it is an ordinary request, and no file answers OPTIONS here.
            #expect(Self.resolver(snapshot, ResolutionPolicy()).resolve(preflight).source == "404")
        }
    }

    @Test func noPreflightIsAnsweredForTheAdminAPI() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            // --cors must not let a page of another origin read /__mockd/: its preflight goes
            // to the admin API, which has no OPTIONS answer that allows anything.
            let preflight = MockRequest.make(
                method: "OPTIONS", path: "/__mockd/requests",
                headers: [HTTPHeader("Access-Control-Request-Method", "GET")])
            let resolution = Self.resolver(snapshot, ResolutionPolicy(answersPreflight: true, adminEnabled: true)).resolve(preflight)
            guard case .admin(let call) = resolution, call.work == .now else {
                Issue.record("expected the admin API, got \(resolution)")
                return
            }
        }
    }

    @Test func theAdminAPIComesBeforeMocksAndSaysWhenItReadsFiles() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let resolver = Self.resolver(snapshot, ResolutionPolicy(adminEnabled: true))
            guard case .admin(let health) = resolver.resolve(.make(path: "/__mockd/health")), health.work == .now else {
                Issue.record("health is not the admin API's")
                return
            }
            let context = AdminAPI.Context(snapshot: snapshot, state: RuntimeState(), journal: RequestJournal(), uptimeSeconds: 0)
            guard case .admin(let reload) = resolver.resolve(.make(method: "POST", path: "/__mockd/reload")),
                case .reload = reload.answer(context)
            else {
                Issue.record("reload does not read files")
                return
            }
            // --no-admin: the path is an ordinary miss.
            #expect(Self.resolver(snapshot, ResolutionPolicy()).resolve(.make(path: "/__mockd/health")).status == 404)
        }
    }

    /// The cache lives beside the snapshot, per server: the same miss is the same report (with the
    /// same `reuseID`), and another server's cache does not see it.
    @Test func repeatedMissesReuseOneReportPerCache() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let cache = NotFoundCache()
            let first = Self.resolver(snapshot, ResolutionPolicy(), misses: cache).resolve(.make(path: "/api/none"))
            let second = Self.resolver(snapshot, ResolutionPolicy(), misses: cache).resolve(.make(path: "/api/none"))
            let other = Self.resolver(snapshot, ResolutionPolicy(), misses: cache).resolve(.make(path: "/api/other"))
            let elsewhere = Self.resolver(snapshot, ResolutionPolicy()).resolve(.make(path: "/api/none"))
            let ids = [first, second, other, elsewhere].map {
                $0.reply.flatMap { reply -> Int? in
                    if case .built(let built) = reply.response { return built.reuseID }
                    return nil
                }
            }
            #expect(ids[0] != nil)
            #expect(ids[0] == ids[1])
            #expect(ids[2] != nil && ids[2] != ids[0])
            #expect(first.bodyText == elsewhere.bodyText)
        }
    }
}
