import Foundation
import MockdCore
import Testing

/// A folder in memory with `MockData/` (the mock root) and `routes/` (route tables), as users lay it out.
struct RouteFixture: Sendable {
    let folder: MemoryFolder
    var root: String { folder.path + "/MockData" }
    var routes: String { folder.path + "/routes" }

    func load() -> MockDataLoader.Result { MockDataLoader(files: folder.files, root: root, routes: routes).load() }

    /// The path of route table `name` as diagnostics and sources show it.
    func table(_ name: String) -> String { routes + "/" + name }
}

/// `files` under `MockData/`, `tables` under `routes/` and `outside` next to both, in memory.
func withRouteFixture<T>(
    files: [String: String] = [:], tables: [String: String] = [:], outside: [String: String] = [:],
    _ body: (RouteFixture) throws -> T
) throws -> T {
    try withMemoryFolder(outside, folders: ["MockData", "routes"]) { folder in
        for (path, contents) in files { folder.write("MockData/" + path, contents) }
        for (path, contents) in tables { folder.write("routes/" + path, contents) }
        return try body(RouteFixture(folder: folder))
    }
}

/// Loads files and tables (which must be valid) into a snapshot; the folder is gone afterwards,
/// the snapshot keeps every byte it serves.
func loadRoutes(files: [String: String] = [:], tables: [String: String]) throws -> Snapshot {
    try withRouteFixture(files: files, tables: tables) { fixture in
        let result = fixture.load()
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "fixture has errors: \(errors)")
        return try #require(result.snapshot, "fixture did not load: \(result.diagnostics)")
    }
}

/// `{"routes": [ items ]}`
func routeTable(_ items: String...) -> String {
    "{\"routes\": [\n" + items.joined(separator: ",\n") + "\n]}\n"
}

/// A route table is decoded completely, and every problem is reported as
/// `file: json.path: what was expected, found what` — one test per kind, each with its exact text.
@Suite("Route tables: decoding and error messages")
struct RouteTableTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        /// The whole `routes/x.json`.
        let table: String
        /// Every diagnostic, in order, with `{table}` for the table's path and `{root}` for the mock root.
        let expected: [String]
        var testDescription: String { name }
    }

    static let valid = [
        #"{"method": "GET", "path": "/a", "response": {"status": 200}}"#,
        #"{"method": "GET", "path": "/b", "response": {"text": "b"}}"#,
    ]

    static let cases: [Case] = [
        Case(
            name: "status is not an integer",
            table: routeTable(valid[0], valid[1], #"{"method": "GET", "path": "/c", "response": {"status": "ok"}}"#),
            expected: [#"{table}: routes[2].response.status: expected an integer 100-599, found "ok""#]),
        Case(
            name: "status out of range",
            table: routeTable(#"{"method": "GET", "path": "/c", "response": {"status": 600}}"#),
            expected: ["{table}: routes[0].response.status: expected an integer 100-599, found 600"]),
        Case(
            name: "unknown route key, with did-you-mean",
            table: routeTable(valid[0], valid[1], #"{"method": "GET", "path": "/c", "respone": {"status": 200}}"#),
            expected: [
                #"{table}: routes[2].respone: unknown key "respone"; did you mean "response"?"#,
                #"{table}: routes[2]: missing "response" (or "responses" for a sequence, or "websocket" for a conversation)"#,
            ]),
        Case(
            name: "unknown response key, with did-you-mean",
            table: routeTable(#"{"method": "GET", "path": "/c", "response": {"staus": 201}}"#),
            expected: [#"{table}: routes[0].response.staus: unknown key "staus"; did you mean "status"?"#]),
        Case(
            name: "unknown key in a different case",
            table: routeTable(#"{"method": "GET", "path": "/c", "response": {"delayms": 5}}"#),
            expected: [#"{table}: routes[0].response.delayms: unknown key "delayms"; did you mean "delayMs"?"#]),
        Case(
            name: "missing path",
            table: routeTable(#"{"method": "GET", "response": {"text": "x"}}"#),
            expected: [#"{table}: routes[0]: missing "path" (such as "/api/users/:id") or "pathPattern" (a regular expression)"#]),
        Case(
            name: "path without a leading slash",
            table: routeTable(#"{"method": "GET", "path": "api/users", "response": {"text": "x"}}"#),
            expected: [#"{table}: routes[0].path: expected a path starting with "/", found "api/users""#]),
        Case(
            name: "both response and responses",
            table: routeTable(#"{"method": "GET", "path": "/c", "response": {"text": "x"}, "responses": [{"text": "y"}]}"#),
            expected: [#"{table}: routes[0]: has both "response" and "responses"; keep one"#]),
        Case(
            name: "bad method name",
            table: routeTable(#"{"method": "GE T", "path": "/c", "response": {"text": "x"}}"#),
            expected: [#"{table}: routes[0].method: expected an HTTP method such as "GET", found "GE T""#]),
        Case(
            name: "method of the wrong type",
            table: routeTable(#"{"method": 42, "path": "/c", "response": {"text": "x"}}"#),
            expected: [#"{table}: routes[0].method: expected a method such as "GET", a list such as ["GET", "HEAD"], or "*", found 42"#]),
        Case(
            name: "missing method",
            table: routeTable(#"{"path": "/c", "response": {"text": "x"}}"#),
            expected: [#"{table}: routes[0].method: missing: expected a method such as "GET", a list, or "*""#]),
        Case(
            name: "bad method in a list",
            table: routeTable(#"{"method": ["GET", "P/UT"], "path": "/c", "response": {"text": "x"}}"#),
            expected: [#"{table}: routes[0].method[1]: expected an HTTP method such as "GET", found "P/UT""#]),
        Case(
            name: "negative delayMs",
            table: routeTable(#"{"method": "GET", "path": "/c", "response": {"delayMs": -5}}"#),
            expected: [
                #"{table}: routes[0].response.delayMs: expected milliseconds as a whole number 0-600000, or {"min": 100, "max": 800}, found -5"#
            ]),
        Case(
            name: "delayMs as a string",
            table: routeTable(#"{"method": "GET", "path": "/c", "response": {"delayMs": "fast"}}"#),
            expected: [
                #"{table}: routes[0].response.delayMs: expected milliseconds as a whole number 0-600000, or {"min": 100, "max": 800}, found "fast""#
            ]),
        Case(
            name: "delayMs range with min above max",
            table: routeTable(#"{"method": "GET", "path": "/c", "response": {"delayMs": {"min": 800, "max": 100}}}"#),
            expected: [
                #"{table}: routes[0].response.delayMs: expected milliseconds as a whole number 0-600000, or {"min": 100, "max": 800}, found an object"#
            ]),
        Case(
            name: "delayMs over the maximum",
            table: routeTable(#"{"method": "GET", "path": "/c", "response": {"delayMs": 600001}}"#),
            expected: [
                #"{table}: routes[0].response.delayMs: expected milliseconds as a whole number 0-600000, or {"min": 100, "max": 800}, found 600001"#
            ]),
        Case(
            name: "unknown fault",
            table: routeTable(#"{"method": "GET", "path": "/c", "response": {"fault": "explode"}}"#),
            expected: [#"{table}: routes[0].response.fault: expected one of "reset", "timeout", "truncated", found "explode""#]),
        Case(
            name: "** not last",
            table: routeTable(#"{"method": "GET", "path": "/api/**/x", "response": {"text": "x"}}"#),
            expected: [#"{table}: routes[0].path: "**" matches the rest of the path, so it must be the last segment, found "/api/**/x""#]),
        Case(
            name: "two bodies",
            table: routeTable(#"{"method": "GET", "path": "/c", "response": {"text": "x", "json": {}}}"#),
            expected: [#"{table}: routes[0].response: has "json" and "text"; a response has at most one body"#]),
        Case(
            name: "file body missing",
            table: routeTable(#"{"method": "GET", "path": "/c", "response": {"file": "nope.json"}}"#),
            expected: ["{table}: routes[0].response.file: no such file: {root}/nope.json"]),
        Case(
            name: "file body outside the root",
            table: routeTable(#"{"method": "GET", "path": "/c", "response": {"file": "../secret.json"}}"#),
            expected: [
                #"{table}: routes[0].response.file: "../secret.json" is outside the mock root {root}; body files must stay inside it"#
            ]),
        Case(
            name: "file body with an absolute path",
            table: routeTable(#"{"method": "GET", "path": "/c", "response": {"file": "/etc/hostname"}}"#),
            expected: [
                #"{table}: routes[0].response.file: expected a path relative to the mock root ({root}), found the absolute path "/etc/hostname""#
            ]),
        Case(
            name: "template without a body",
            table: routeTable(#"{"method": "GET", "path": "/c", "response": {"template": true}}"#),
            expected: ["{table}: routes[0].response.template: a template needs a json, text or file body to render"]),
        Case(
            name: "truncated without a body",
            table: routeTable(#"{"method": "GET", "path": "/c", "response": {"fault": "truncated"}}"#),
            expected: [
                #"{table}: routes[0].response.fault: "truncated" sends part of a body, so the response needs a json, text or file body"#
            ]),
        Case(
            name: "bad sequence mode",
            table: routeTable(#"{"method": "GET", "path": "/c", "responses": [{"text": "a"}], "sequence": "shuffle"}"#),
            expected: [#"{table}: routes[0].sequence: expected "repeat-last" or "cycle", found "shuffle""#]),
        Case(
            name: "empty responses list",
            table: routeTable(#"{"method": "GET", "path": "/c", "responses": []}"#),
            expected: [#"{table}: routes[0].responses: expected a non-empty array of responses, found an array"#]),
        Case(
            name: "header condition that is not a string",
            table: routeTable(#"{"method": "GET", "path": "/c", "match": {"headers": {"X-Count": 3}}, "response": {"text": "x"}}"#),
            expected: [#"{table}: routes[0].match.headers.X-Count: expected a string ("*" = present, * matches any text), found 3"#]),
        Case(
            name: "no routes key",
            table: #"{"rutes": []}"#,
            expected: [
                #"{table}: rutes: unknown key "rutes"; did you mean "routes"?"#,
                #"{table}: missing "routes": expected {"routes": [ … ]}"#,
            ]),
        // The second comma on line 3 sits in column 22.
        Case(
            name: "invalid JSON, with line and column",
            table: "{\n  \"routes\": [\n    {\"method\": \"GET\",, \"path\": \"/c\"}\n  ]\n}\n",
            expected: [#"{table}: line 3, column 22: invalid JSON: expected a member name in double quotes, found ','"#]),
        Case(
            name: "several errors in one file are all reported",
            table: routeTable(
                #"{"method": "GET", "path": "/a", "response": {"status": "ok"}}"#,
                #"{"method": "GET", "path": "/b", "response": {"fault": "explode"}}"#,
                valid[1],
                #"{"method": "GET", "path": "/d", "respone": {}, "response": {"delayMs": -1}}"#),
            expected: [
                #"{table}: routes[0].response.status: expected an integer 100-599, found "ok""#,
                #"{table}: routes[1].response.fault: expected one of "reset", "timeout", "truncated", found "explode""#,
                #"{table}: routes[3].respone: unknown key "respone"; did you mean "response"?"#,
                #"{table}: routes[3].response.delayMs: expected milliseconds as a whole number 0-600000, or {"min": 100, "max": 800}, found -1"#,
            ]),
    ]

    @Test("each kind of error has its exact message", arguments: cases)
    func decoding_ReportsTheExactError(_ testCase: Case) throws {
        try withRouteFixture(
            files: ["mock_api_users_get.json": "[]"], tables: ["x.json": testCase.table],
            outside: ["secret.json": #"{"secret": true}"#]
        ) { fixture in
            let result = fixture.load()
            let expected = testCase.expected.map {
                $0.replacingOccurrences(of: "{table}", with: fixture.table("x.json")).replacingOccurrences(of: "{root}", with: fixture.root)
            }
            #expect(result.diagnostics.map(\.description) == expected)
            #expect(result.diagnostics.allSatisfy { $0.severity == .error })
            #expect(result.snapshot == nil, "a table with errors must not load")
        }
    }

    @Test func invalidPathPattern_NamesThePlaceAndTheRegexError() throws {
        let table = routeTable(#"{"method": "GET", "pathPattern": "/api/(unclosed", "response": {"text": "x"}}"#)
        try withRouteFixture(tables: ["x.json": table]) { fixture in
            let result = fixture.load()
            #expect(result.snapshot == nil)
            let diagnostic = try #require(result.diagnostics.first)
            #expect(result.diagnostics.count == 1, "\(result.diagnostics)")
            #expect(diagnostic.file == fixture.table("x.json"))
            #expect(diagnostic.location == "routes[0].pathPattern")
            // The regex engine's own reason follows; it must say something.
            #expect(diagnostic.message.hasPrefix("not a valid regular expression: "))
            #expect(diagnostic.message.count > "not a valid regular expression: ".count)
        }
    }

    @Test func shadowedRoute_IsAWarningAndTheTableStillLoads() throws {
        let table = routeTable(
            #"{"method": "GET", "path": "/api/users/:id", "response": {"text": "any"}}"#,
            #"{"method": "GET", "path": "/api/users/42", "response": {"text": "never"}}"#)
        try withRouteFixture(tables: ["x.json": table]) { fixture in
            let result = fixture.load()
            let path = fixture.table("x.json")
            #expect(
                result.diagnostics.map(\.description) == [
                    "warning: \(path): routes[1]: never matches: \(path)#0 (GET /api/users/:id) comes first and always answers; move this route above it or give that one a condition"
                ])
            #expect(result.diagnostics.first?.severity == .warning)
            let snapshot = try #require(result.snapshot, "a warning must not stop loading")
            #expect(snapshot.routes.count == 2)
        }
    }

    /// A GET route answers HEAD, so a later HEAD route for the same path can never answer.
    @Test func aHEADRouteAfterAGETRouteIsShadowed() throws {
        let table = routeTable(
            #"{"method": "GET", "path": "/h", "response": {"text": "get"}}"#,
            #"{"method": "HEAD", "path": "/h", "response": {"status": 204}}"#)
        try withRouteFixture(tables: ["x.json": table]) { fixture in
            let snapshot = try #require(fixture.load().snapshot)
            let answer = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(MockRequest(method: "HEAD", path: "/h"))
            #expect(answer.status == 200, "the GET route answers HEAD first")
            let path = fixture.table("x.json")
            #expect(
                fixture.load().diagnostics.map(\.description) == [
                    "warning: \(path): routes[1]: never matches: \(path)#0 (GET /h) comes first and always answers; move this route above it or give that one a condition"
                ])
        }
    }

    @Test func aRouteWithAConditionDoesNotShadow() throws {
        let table = routeTable(
            #"{"method": "GET", "path": "/api/users/:id", "match": {"headers": {"X-Admin": "*"}}, "response": {"text": "admin"}}"#,
            #"{"method": "GET", "path": "/api/users/42", "response": {"text": "42"}}"#)
        try withRouteFixture(tables: ["x.json": table]) { fixture in
            #expect(fixture.load().diagnostics.isEmpty)
        }
    }

    @Test func errorsInTwoTables_AreReportedPerFileInFileNameOrder() throws {
        let bad = routeTable(#"{"method": "GET", "path": "/c", "response": {"status": "ok"}}"#)
        try withRouteFixture(tables: ["b.json": bad, "a.json": bad, "notes.txt": "not a table"]) { fixture in
            let result = fixture.load()
            #expect(result.diagnostics.map(\.file) == [fixture.table("a.json"), fixture.table("b.json")])
        }
    }

    @Test func validTable_LoadsRoutesInOrderWithTheirSources() throws {
        let table = routeTable(
            #"{"name": "first", "method": ["GET", "HEAD"], "path": "/a/:id", "scenario": "s", "response": {"status": 201}}"#,
            #"{"method": "*", "pathPattern": "/b/(?<n>[0-9]+)", "responses": [{"text": "1"}, {"text": "2"}], "sequence": "cycle"}"#)
        try withRouteFixture(tables: ["x.json": table]) { fixture in
            let result = fixture.load()
            #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
            let snapshot = try #require(result.snapshot)
            #expect(snapshot.routes.map(\.source) == [fixture.table("x.json") + "#0", fixture.table("x.json") + "#1"])
            #expect(snapshot.routes.map(\.name) == ["first", nil])
            #expect(snapshot.routes[0].methods == .only(["GET", "HEAD"]))
            #expect(snapshot.routes[1].methods == .any)
            #expect(snapshot.routes[0].scenario == "s")
            #expect(snapshot.routes[1].sequence == .cycle)
            #expect(snapshot.routes[1].responses.count == 2)
            #expect(snapshot.scenarios == ["s"])
        }
    }
}
