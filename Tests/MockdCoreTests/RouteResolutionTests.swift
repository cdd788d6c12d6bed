import Foundation
import MockdCore
import MockdLock
import Testing
import Synchronization

extension Resolution {
    /// The body bytes, prepared or built.
    var bodyBytes: [UInt8] {
        switch response {
        case .prepared(let prepared): prepared.body.array
        case .built(let built): built.body
        case .streamed(let streamed): streamed.stream.pieces.flatMap(\.bytes)
        }
    }

    var bodyText: String { String(decoding: bodyBytes, as: UTF8.self) }
}

/// A request with query arguments (as the adapter decodes them) and headers given as pairs.
func request(
    _ method: String, _ path: String, query: [(String, String?)] = [], headers: [(String, String)] = [],
    body: String = ""
) -> MockRequest {
    MockRequest(
        method: method, path: path, query: query.map { (name: $0.0, value: $0.1) },
        rawQuery: query.map { pair in pair.1.map { "\(pair.0)=\($0)" } ?? pair.0 }.joined(separator: "&"),
        headers: hostForAdmin(path) + headers.map { HTTPHeader($0.0, $0.1) }, body: Array(body.utf8))
}

/// Route tables and resolution without sockets: conditions, paths, methods, precedence, scenarios,
/// sequences and templates, resolved by `Resolver` from route tables loaded from disk.
@Suite("Route resolution")
struct RouteResolutionTests {
    // MARK: - Conditions

    struct ConditionCase: Sendable, CustomTestStringConvertible {
        let name: String
        /// The route's `match` object.
        let match: String
        let query: [(String, String?)]
        let headers: [(String, String)]
        let body: String
        let matches: Bool

        init(
            _ name: String, _ match: String, query: [(String, String?)] = [], headers: [(String, String)] = [], body: String = "",
            _ matches: Bool
        ) {
            self.name = name
            self.match = match
            self.query = query
            self.headers = headers
            self.body = body
            self.matches = matches
        }

        var testDescription: String { "\(name) → \(matches ? "match" : "no match")" }
    }

    static let conditionCases: [ConditionCase] = [
        // headers: names case-insensitive, "*" = present, * globs inside a value
        ConditionCase("header present, name in another case", #"{"headers": {"X-API-Key": "*"}}"#, headers: [("x-api-key", "abc")], true),
        ConditionCase("header present with an empty value", #"{"headers": {"X-API-Key": "*"}}"#, headers: [("X-API-KEY", "")], true),
        ConditionCase("header absent", #"{"headers": {"X-API-Key": "*"}}"#, headers: [("X-Other", "abc")], false),
        ConditionCase(
            "glob Bearer *", #"{"headers": {"Authorization": "Bearer *"}}"#, headers: [("authorization", "Bearer abc.def")], true),
        ConditionCase(
            "glob Bearer * against Basic", #"{"headers": {"Authorization": "Bearer *"}}"#, headers: [("Authorization", "Basic abc")], false),
        ConditionCase(
            "glob Bearer * without the space", #"{"headers": {"Authorization": "Bearer *"}}"#, headers: [("Authorization", "Bearer")], false
        ),
        ConditionCase(
            "glob in the middle", #"{"headers": {"Accept": "application/*json"}}"#, headers: [("Accept", "application/vnd.api+json")], true),
        ConditionCase(
            "exact value is not a prefix", #"{"headers": {"Accept": "application/json"}}"#,
            headers: [("Accept", "application/json; charset=utf-8")], false),
        ConditionCase("two headers, both there", #"{"headers": {"A": "1", "B": "*"}}"#, headers: [("a", "1"), ("b", "x")], true),
        ConditionCase("two headers, one missing", #"{"headers": {"A": "1", "B": "*"}}"#, headers: [("a", "1")], false),
        // query: the same rules
        ConditionCase("query value", #"{"query": {"lang": "en"}}"#, query: [("lang", "en")], true),
        ConditionCase("query other value", #"{"query": {"lang": "en"}}"#, query: [("lang", "fr")], false),
        ConditionCase("query absent", #"{"query": {"lang": "en"}}"#, false),
        ConditionCase("query present", #"{"query": {"page": "*"}}"#, query: [("page", "2")], true),
        ConditionCase("query present without a value", #"{"query": {"page": "*"}}"#, query: [("page", nil)], true),
        ConditionCase("query glob", #"{"query": {"q": "ad*"}}"#, query: [("q", "ada")], true),
        ConditionCase("query glob no match", #"{"query": {"q": "ad*"}}"#, query: [("q", "bob")], false),
        // json: a subset, nested objects and arrays, numbers numerically
        ConditionCase(
            "json nested object subset", #"{"json": {"user": {"email": "a@b.c"}}}"#,
            body: #"{"user": {"email": "a@b.c", "name": "Ada"}, "extra": 1}"#, true),
        ConditionCase(
            "json nested value differs", #"{"json": {"user": {"email": "a@b.c"}}}"#, body: #"{"user": {"email": "z@b.c"}}"#, false),
        ConditionCase("json array items contained", #"{"json": {"tags": ["x", "y"]}}"#, body: #"{"tags": ["y", "z", "x"]}"#, true),
        ConditionCase("json array item missing", #"{"json": {"tags": ["x", "y"]}}"#, body: #"{"tags": ["x"]}"#, false),
        ConditionCase(
            "json array of objects", #"{"json": {"items": [{"id": 2}]}}"#, body: #"{"items": [{"id": 1, "n": "a"}, {"id": 2, "n": "b"}]}"#,
            true),
        ConditionCase("json 1 matches 1.0", #"{"json": {"count": 1}}"#, body: #"{"count": 1.0}"#, true),
        ConditionCase("json 1.0 matches 1", #"{"json": {"count": 1.0}}"#, body: #"{"count": 1}"#, true),
        ConditionCase("json 1e2 matches 100", #"{"json": {"count": 1e2}}"#, body: #"{"count": 100}"#, true),
        ConditionCase("json 1 does not match 1.5", #"{"json": {"count": 1}}"#, body: #"{"count": 1.5}"#, false),
        ConditionCase("json 1 does not match \"1\"", #"{"json": {"count": 1}}"#, body: #"{"count": "1"}"#, false),
        ConditionCase("json null", #"{"json": {"a": null}}"#, body: #"{"a": null}"#, true),
        ConditionCase("json null key missing", #"{"json": {"a": null}}"#, body: #"{}"#, false),
        ConditionCase("json body is not JSON", #"{"json": {"a": 1}}"#, body: "a=1", false),
        ConditionCase("json empty body", #"{"json": {}}"#, false),
        // text: the raw body contains it
        ConditionCase("text contained", #"{"text": "needle"}"#, body: "hay needle stack", true),
        ConditionCase("text not contained", #"{"text": "needle"}"#, body: "hay stack", false),
        // all conditions must hold
        ConditionCase(
            "header and json, both hold", #"{"headers": {"X-Key": "*"}, "json": {"a": 1}}"#, headers: [("X-Key", "k")], body: #"{"a": 1}"#,
            true),
        ConditionCase(
            "header and json, json fails", #"{"headers": {"X-Key": "*"}, "json": {"a": 1}}"#, headers: [("X-Key", "k")], body: #"{"a": 2}"#,
            false),
    ]

    @Test("match conditions", arguments: conditionCases)
    func conditions(_ testCase: ConditionCase) throws {
        let snapshot = try loadRoutes(tables: [
            "c.json": routeTable(
                #"{"method": "POST", "path": "/m", "match": \#(testCase.match), "response": {"text": "matched"}}"#)
        ])
        let answer = Resolver(snapshot: snapshot, state: RuntimeState())
            .resolve(request("POST", "/m", query: testCase.query, headers: testCase.headers, body: testCase.body))
        if testCase.matches {
            #expect(answer.status == 200)
            #expect(answer.bodyText == "matched")
        } else {
            #expect(answer.status == 404, "answered \(answer.bodyText)")
            #expect(answer.isMiss)
        }
    }

    // MARK: - Paths and methods

    static let pathTable = routeTable(
        #"{"method": "GET", "path": "/users/:id", "response": {"text": "user {{path.id}}", "template": true}}"#,
        #"{"method": "GET", "path": "/files/**", "response": {"text": "files"}}"#,
        #"{"method": "GET", "path": "/a/*/c", "response": {"text": "a-star-c"}}"#,
        #"{"method": "GET", "pathPattern": "/items/(?<id>[0-9]+)/(?<part>[a-z]+)", "response": {"text": "item {{path.id}} {{path.part}}", "template": true}}"#,
        #"{"method": ["PUT", "PATCH"], "path": "/m", "response": {"text": "put-or-patch"}}"#,
        #"{"method": "*", "path": "/any", "response": {"text": "any"}}"#,
        #"{"method": "GET", "path": "/:a/:b/pair", "response": {"text": "{{path.a}}+{{path.b}}", "template": true}}"#)

    @Test(
        "paths and methods",
        arguments: [
            ("GET", "/users/42", "user 42"),
            ("GET", "/users/42/", "user 42"),
            ("GET", "/users", nil),
            ("GET", "/users/42/x", nil),
            ("POST", "/users/42", nil),
            ("HEAD", "/users/7", "user 7"),
            ("GET", "/files/a/b/c.txt", "files"),
            ("GET", "/files/a", "files"),
            ("GET", "/a/b/c", "a-star-c"),
            ("GET", "/a/b/x/c", nil),
            ("GET", "/a/c", nil),
            ("GET", "/items/17/parts", "item 17 parts"),
            ("GET", "/items/x/parts", nil),
            ("GET", "/items/17/parts/more", nil),
            ("PUT", "/m", "put-or-patch"),
            ("PATCH", "/m", "put-or-patch"),
            ("GET", "/m", nil),
            ("DELETE", "/any", "any"),
            ("POST", "/any", "any"),
            ("GET", "/any", "any"),
            ("HEAD", "/any", "any"),
            ("GET", "/x/y/pair", "x+y"),
        ] as [(String, String, String?)])
    func pathsAndMethods(method: String, path: String, expected: String?) throws {
        let snapshot = try loadRoutes(tables: ["p.json": Self.pathTable])
        let answer = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(request(method, path))
        if let expected {
            #expect(answer.status == 200, "\(answer.bodyText)")
            #expect(answer.bodyText == expected)
        } else {
            #expect(answer.isMiss, "answered \(answer.bodyText)")
        }
    }

    @Test func headRequest_UsesTheGETRouteWithItsStatusAndHeaders() throws {
        let snapshot = try loadRoutes(tables: [
            "h.json": routeTable(
                #"{"method": "GET", "path": "/h", "response": {"status": 203, "headers": {"X-Thing": "1"}, "json": {"a": 1}}}"#)
        ])
        let answer = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(request("HEAD", "/h"))
        #expect(answer.status == 203)
        guard case .prepared(let prepared) = answer.response else { Issue.record("not prepared"); return }
        #expect(prepared.headers.first(named: "X-Thing") == "1")
        #expect(prepared.headers.first(named: "Content-Type") == ContentType.json)
    }

    @Test func firstMatchingRouteWins_AcrossTablesInFileNameOrder() throws {
        let snapshot = try loadRoutes(tables: [
            "b.json": routeTable(#"{"method": "GET", "path": "/w", "response": {"text": "b0"}}"#),
            "a.json": routeTable(
                #"{"method": "GET", "path": "/w", "match": {"query": {"x": "*"}}, "response": {"text": "a0"}}"#,
                #"{"method": "GET", "path": "/w", "match": {"query": {"y": "*"}}, "response": {"text": "a1"}}"#),
        ])
        let resolver = Resolver(snapshot: snapshot, state: RuntimeState())
        #expect(resolver.resolve(request("GET", "/w", query: [("x", "1"), ("y", "1")])).bodyText == "a0")
        #expect(resolver.resolve(request("GET", "/w", query: [("y", "1")])).bodyText == "a1")
        #expect(resolver.resolve(request("GET", "/w")).bodyText == "b0")
    }

    // MARK: - Precedence

    static let precedenceFiles: [String: String] = [
        "mock_api_a_get.json": #"{"from": "base a"}"#,
        "scenarios/s/mock_api_a_get.json": #"{"from": "overlay a"}"#,
        "mock_api_b_get.json": #"{"from": "base b"}"#,
        "scenarios/s/mock_api_b_get.json": #"{"from": "overlay b"}"#,
        "mock_api_c_get.json": #"{"from": "base c"}"#,
        "mock_api_d_get.json": #"{"from": "base d"}"#,
        "mock_api_f_get.json": #"{"from": "base f"}"#,
    ]
    static let precedenceTable = routeTable(
        #"{"method": "GET", "path": "/api/a", "scenario": "s", "response": {"text": "scenario route a"}}"#,
        #"{"method": "GET", "path": "/api/a", "response": {"text": "plain route a"}}"#,
        #"{"method": "GET", "path": "/api/b", "response": {"text": "plain route b"}}"#,
        #"{"method": "GET", "path": "/api/c", "response": {"text": "plain route c"}}"#,
        #"{"method": "GET", "path": "/api/f", "scenario": "t", "response": {"text": "scenario t route f"}}"#)

    /// Resolution order: scenario route > overlay file > plain route > base file > 404.
    @Test(
        "precedence",
        arguments: [
            ("s", "/api/a", "scenario route a"),
            ("default", "/api/a", "plain route a"),
            ("s", "/api/b", #"{"from": "overlay b"}"#),
            ("default", "/api/b", "plain route b"),
            ("s", "/api/c", "plain route c"),
            ("s", "/api/d", #"{"from": "base d"}"#),
            ("default", "/api/f", #"{"from": "base f"}"#),
            ("s", "/api/f", #"{"from": "base f"}"#),
            ("t", "/api/f", "scenario t route f"),
            ("s", "/api/e", nil),
        ] as [(String, String, String?)])
    func precedence(scenario: String, path: String, expected: String?) throws {
        let snapshot = try loadRoutes(files: Self.precedenceFiles, tables: ["p.json": Self.precedenceTable])
        let answer = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(
            request("GET", path, headers: [("X-Mock-Scenario", scenario)]))
        #expect(answer.scenario == scenario)
        if let expected {
            #expect(answer.status == 200)
            #expect(answer.bodyText == expected)
        } else {
            #expect(answer.status == 404)
            #expect(answer.isMiss)
        }
    }

    // MARK: - Scenarios

    static let scenarioTable = routeTable(
        #"{"method": "GET", "path": "/x", "scenario": "s", "response": {"text": "s-route"}}"#,
        #"{"method": "GET", "path": "/x", "response": {"text": "plain"}}"#)

    @Test func scenario_FromTheHeader() throws {
        let snapshot = try loadRoutes(tables: ["s.json": Self.scenarioTable])
        let resolver = Resolver(snapshot: snapshot, state: RuntimeState())
        #expect(resolver.resolve(request("GET", "/x", headers: [("X-Mock-Scenario", "s")])).bodyText == "s-route")
        #expect(resolver.resolve(request("GET", "/x", headers: [("x-mock-scenario", "s")])).bodyText == "s-route")
        #expect(resolver.resolve(request("GET", "/x")).bodyText == "plain")
    }

    @Test func scenario_RuntimeGlobalThenHeaderWins() throws {
        let snapshot = try loadRoutes(tables: ["s.json": Self.scenarioTable])
        let state = RuntimeState()
        let resolver = Resolver(snapshot: snapshot, state: state)
        state.setScenario("s")
        #expect(resolver.resolve(request("GET", "/x")).bodyText == "s-route")
        #expect(resolver.resolve(request("GET", "/x", headers: [("X-Mock-Session", "any")])).bodyText == "s-route")
        #expect(resolver.resolve(request("GET", "/x", headers: [("X-Mock-Scenario", "default")])).bodyText == "plain")
    }

    @Test func scenario_PerSession() throws {
        let snapshot = try loadRoutes(tables: ["s.json": Self.scenarioTable])
        let state = RuntimeState()
        let resolver = Resolver(snapshot: snapshot, state: state)
        state.setScenario("s", session: "A")
        #expect(resolver.resolve(request("GET", "/x", headers: [("X-Mock-Session", "A")])).bodyText == "s-route")
        #expect(resolver.resolve(request("GET", "/x", headers: [("X-Mock-Session", "B")])).bodyText == "plain")
        #expect(resolver.resolve(request("GET", "/x")).bodyText == "plain")
    }

    @Test func scenario_FromTheStartupFlag() throws {
        let snapshot = try loadRoutes(tables: ["s.json": Self.scenarioTable])
        let state = RuntimeState(startupScenario: "s")
        let resolver = Resolver(snapshot: snapshot, state: state)
        let answer = resolver.resolve(request("GET", "/x"))
        #expect(answer.bodyText == "s-route")
        #expect(answer.scenario == "s")
        // The runtime scenario beats --scenario.
        state.setScenario("default")
        #expect(resolver.resolve(request("GET", "/x")).bodyText == "plain")
    }

    // MARK: - Sequences

    static func sequenceTable(_ mode: String?) -> String {
        let sequence = mode.map { #", "sequence": "\#($0)""# } ?? ""
        return routeTable(
            #"{"method": "GET", "path": "/seq", "responses": [{"status": 201}, {"status": 202}, {"status": 203}]\#(sequence)}"#)
    }

    @Test(
        "sequences",
        arguments: [
            (nil, [201, 202, 203, 203, 203]),
            ("repeat-last", [201, 202, 203, 203, 203]),
            ("cycle", [201, 202, 203, 201, 202, 203, 201]),
        ] as [(String?, [Int])])
    func sequence(mode: String?, expected: [Int]) throws {
        let snapshot = try loadRoutes(tables: ["q.json": Self.sequenceTable(mode)])
        let resolver = Resolver(snapshot: snapshot, state: RuntimeState())
        let statuses = expected.indices.map { _ in resolver.resolve(request("GET", "/seq")).status }
        #expect(statuses == expected)
    }

    @Test func sequence_EachSessionHasItsOwnCounter() throws {
        let snapshot = try loadRoutes(tables: ["q.json": Self.sequenceTable("repeat-last")])
        let state = RuntimeState()
        let resolver = Resolver(snapshot: snapshot, state: state)
        func call(_ session: String?) -> Int {
            resolver.resolve(request("GET", "/seq", headers: session.map { [("X-Mock-Session", $0)] } ?? [])).status
        }
        #expect(call("A") == 201)
        #expect(call("A") == 202)
        #expect(call("B") == 201)
        #expect(call(nil) == 201)
        #expect(call("A") == 203)
        #expect(call(nil) == 202)
        state.resetSequences()
        #expect(call("A") == 201)
        #expect(call(nil) == 201)
    }

    /// Two routes with sequences in one table, for the same method and path, told apart only by
    /// their conditions: each must count its own calls.
    @Test func sequence_TwoRoutesThatDifferOnlyInConditionsCountSeparately() throws {
        let snapshot = try loadRoutes(tables: [
            "q.json": routeTable(
                #"{"method": "GET", "path": "/x", "match": {"headers": {"X-A": "*"}}, "responses": [{"text": "a1"}, {"text": "a2"}]}"#,
                #"{"method": "GET", "path": "/x", "responses": [{"text": "b1"}, {"text": "b2"}]}"#)
        ])
        let resolver = Resolver(snapshot: snapshot, state: RuntimeState())
        #expect(resolver.resolve(request("GET", "/x", headers: [("X-A", "1")])).bodyText == "a1")
        #expect(resolver.resolve(request("GET", "/x")).bodyText == "b1")
        #expect(resolver.resolve(request("GET", "/x", headers: [("X-A", "1")])).bodyText == "a2")
        #expect(resolver.resolve(request("GET", "/x")).bodyText == "b2")
    }

    /// 200 concurrent requests each take their own position: a 3-response cycle gives each
    /// response 66 or 67 times, and repeat-last gives the first two exactly once.
    @Test("concurrent requests never share or skip a position", arguments: ["cycle", "repeat-last"])
    func sequence_UnderConcurrentRequests(mode: String) throws {
        let snapshot = try loadRoutes(tables: ["q.json": Self.sequenceTable(mode)])
        let resolver = Resolver(snapshot: snapshot, state: RuntimeState())
        let counts = Lock<[Int: Int]>([:])
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            let status = resolver.resolve(request("GET", "/seq")).status
            counts.withLock { $0[status, default: 0] += 1 }
        }
        let result = counts.withLock { $0 }
        #expect(result.values.reduce(0, +) == 200)
        if mode == "cycle" {
            #expect(Set(result.keys) == [201, 202, 203])
            let values = [201, 202, 203].map { result[$0] ?? 0 }
            #expect(values.max()! - values.min()! <= 1, "\(result)")
        } else {
            #expect(result == [201: 1, 202: 1, 203: 198])
        }
    }

    @Test func sequence_EachResponseHasItsOwnDelayAndFault() throws {
        let snapshot = try loadRoutes(tables: [
            "d.json": routeTable(
                #"{"method": "GET", "path": "/d", "responses": [{"text": "slow", "delayMs": 300}, {"fault": "reset"}, {"text": "ranged", "delayMs": {"min": 100, "max": 200}}]}"#
            )
        ])
        let resolver = Resolver(snapshot: snapshot, state: RuntimeState(), globalDelay: .milliseconds(50))
        let slow = resolver.resolve(request("GET", "/d"))
        #expect(slow.bodyText == "slow")
        #expect(slow.delay == .milliseconds(350))
        #expect(slow.fault == nil)
        let reset = resolver.resolve(request("GET", "/d"))
        #expect(reset.fault == .reset)
        #expect(reset.delay == .milliseconds(50))
        let ranged = resolver.resolve(request("GET", "/d"))
        #expect(ranged.bodyText == "ranged")
        #expect((Duration.milliseconds(150)...Duration.milliseconds(250)).contains(ranged.delay), "\(ranged.delay)")
    }

    /// Misses too (the 404 report, the 501, and with --proxy the upstream's answer).
    @Test func globalDelay_AppliesToFilesAndMisses() throws {
        let snapshot = try loadRoutes(files: ["mock_api_users_get.json": "[]"], tables: [:])
        let resolver = Resolver(snapshot: snapshot, state: RuntimeState(), globalDelay: .milliseconds(120))
        #expect(resolver.resolve(request("GET", "/api/users")).delay == .milliseconds(120))
        #expect(resolver.resolve(request("GET", "/api/none")).delay == .milliseconds(120))
        #expect(resolver.resolve(request("BREW", "/api/none")).delay == .milliseconds(120))
        #expect(Resolver(snapshot: snapshot, state: RuntimeState()).resolve(request("GET", "/api/none")).delay == .zero)
        // With --proxy the upstream's answer waits too.
        let forwarding = Resolver(
            snapshot: snapshot, state: RuntimeState(), policy: ResolutionPolicy(globalDelay: .milliseconds(120), forwardsMisses: true))
        guard case .forward(_, let delay, _) = forwarding.resolve(request("GET", "/api/none")) else {
            Issue.record("a miss was not forwarded")
            return
        }
        #expect(delay == .milliseconds(120))
    }

    // MARK: - Templates

    static let templateTable = routeTable(
        #"""
        {"method": "POST", "path": "/t/:id", "response": {"template": true, "headers": {"Content-Type": "application/json"},
         "text": "{\"id\": \"{{path.id}}\", \"q\": \"{{query.q}}\", \"agent\": \"{{headers.x-agent}}\", \"agentAsSent\": \"{{headers.X-Agent}}\", \"name\": \"{{json.name}}\", \"city\": \"{{json.address.city}}\", \"now\": \"{{now}}\", \"uuid\": \"{{uuid}}\"}"}}
        """#)

    @Test func template_RendersEveryValueAndEscapesForJSON() throws {
        let snapshot = try loadRoutes(tables: ["t.json": Self.templateTable])
        let resolver = Resolver(snapshot: snapshot, state: RuntimeState())
        let name = #"Ada "Countess" Love\lace"#
        let body = #"{"name": "Ada \"Countess\" Love\\lace", "address": {"city": "London"}}"#
        let make = { request("POST", "/t/42", query: [("q", "swift testing")], headers: [("X-Agent", "tester/1.0")], body: body) }
        let before = Date()
        let first = resolver.resolve(make())
        let after = Date()
        #expect(first.status == 200)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(first.bodyBytes)) as? [String: Any],
            "not valid JSON: \(first.bodyText)")
        #expect(object["id"] as? String == "42")
        #expect(object["q"] as? String == "swift testing")
        #expect(object["agent"] as? String == "tester/1.0")
        #expect(object["agentAsSent"] as? String == "tester/1.0")
        #expect(object["name"] as? String == name)
        #expect(object["city"] as? String == "London")
        let now = try #require(
            (object["now"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }, "now: \(object["now"] ?? "nil")")
        #expect(now >= before.addingTimeInterval(-1) && now <= after.addingTimeInterval(1))
        let uuid = try #require((object["uuid"] as? String).flatMap(UUID.init(uuidString:)), "uuid: \(object["uuid"] ?? "nil")")
        // A fresh uuid per request.
        let second = try #require(try JSONSerialization.jsonObject(with: Data(resolver.resolve(make()).bodyBytes)) as? [String: Any])
        #expect((second["uuid"] as? String).flatMap(UUID.init(uuidString:)) != uuid)
        // The headers of the route, and the source.
        let built = try #require(first.built)
        #expect(built.headers.first(named: "Content-Type") == "application/json")
        #expect(first.source.hasPrefix("route ") && first.source.hasSuffix("/t.json#0"), "\(first.source)")
    }

    @Test func template_MissingValuesRenderEmpty() throws {
        let snapshot = try loadRoutes(tables: ["t.json": Self.templateTable])
        let answer = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(request("POST", "/t/7"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.bodyBytes)) as? [String: Any], "\(answer.bodyText)")
        #expect(object["id"] as? String == "7")
        #expect(object["q"] as? String == "")
        #expect(object["name"] as? String == "")
    }

    @Test func template_TextBodiesAreNotEscaped() throws {
        let snapshot = try loadRoutes(tables: [
            "t.json": routeTable(
                #"{"method": "GET", "path": "/say", "response": {"template": true, "text": "you said {{query.q}}"}}"#)
        ])
        let answer = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(request("GET", "/say", query: [("q", #"<"hi"> & bye"#)]))
        #expect(answer.bodyText == #"you said <"hi"> & bye"#)
        #expect(answer.built?.headers.first(named: "Content-Type") == ContentType.text)
    }
}
