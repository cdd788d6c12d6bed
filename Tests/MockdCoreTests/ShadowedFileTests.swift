import MockdCore
import Testing

/// A file an earlier route always answers for can never be served: said at load (check, start,
/// reload), in `mockd routes` and in the sources the dashboard lists.
@Suite("Files a route shadows")
struct ShadowedFileTests {
    static let table = #"""
        {"routes": [
          {"scenario": "error", "method": "GET", "path": "/api/users", "response": {"status": 500, "json": {}}},
          {"method": "POST", "path": "/api/v1/login", "response": {"status": 401, "json": {}}},
          {"method": "GET", "path": "/api/me", "match": {"headers": {"Authorization": "*"}}, "response": {"json": {}}},
          {"method": "GET", "path": "/api/things/**", "response": {"json": []}},
          {"method": "PUT", "path": "/api/profile", "response": {"file": "mock_api_profile_put.json"}}
        ]}
        """#

    static let files = [
        "MockData/scenarios/error/mock_api_users_get.500.json": "{}",  // behind routes[0] in scenario error
        "MockData/mock_api_users_get.json": "[]",  // routes[0] is only in scenario error: served by default
        "MockData/mock_api_v1_login_post.json": "{}",  // behind routes[1] always
        "MockData/mock_api_me_get.json": "{}",  // routes[2] has a condition
        "MockData/mock_api_things_1_get.json": "{}",  // behind routes[3]'s /**
        "MockData/mock_api_profile_put.json": "{}",  // routes[4]'s own body: served through it
        "routes/a.json": table,
    ]

    @Test func aFileBehindAnUnconditionalRouteIsAWarningNamingTheRoute() throws {
        try withMemoryFolder(Self.files) { folder in
            let loaded = MockDataLoader(files: folder.files, root: folder.child("MockData"), routes: folder.child("routes")).load()
            let snapshot = try #require(loaded.snapshot, "\(loaded.diagnostics)")
            let warnings = loaded.diagnostics.filter { $0.message.contains("never answers") }
            #expect(warnings.allSatisfy { $0.severity == .warning })
            #expect(
                Set(warnings.map(\.file)) == [
                    folder.child("MockData/scenarios/error/mock_api_users_get.500.json"),
                    folder.child("MockData/mock_api_v1_login_post.json"),
                    folder.child("MockData/mock_api_things_1_get.json"),
                ], "\(loaded.diagnostics)")
            let error = try #require(warnings.first { $0.file.hasSuffix("mock_api_users_get.500.json") })
            #expect(error.message.contains(folder.child("routes") + "/a.json#0"), "\(error)")
            #expect(error.message.contains("scenario error"), "\(error)")

            // The dashboard's sources say it too.
            #expect(snapshot.shadowed["scenarios/error/mock_api_users_get.500.json"] == folder.child("routes") + "/a.json#0")
            #expect(snapshot.shadowed["mock_api_profile_put.json"] == nil)
            // `mockd routes` marks it where it is listed.
            let listing = ResolutionOrder.text(snapshot)
            #expect(
                listing.contains(
                    "file scenarios/error/mock_api_users_get.500.json (never answers: \(folder.child("routes"))/a.json#0 comes first)"),
                "\(listing)")
            #expect(!listing.contains("mock_api_me_get.json (never"), "\(listing)")
        }
    }
}

/// A misspelt method was accepted and the route never answered.
@Suite("Route methods")
struct RouteMethodTests {
    @Test func anUnknownMethodIsAnErrorSuggestingTheNearOne() throws {
        try withRouteFixture(tables: [
            "a.json": routeTable(
                #"{"method": "GTE", "path": "/a", "response": {"text": "a"}}"#,
                #"{"method": ["GET", "POTS"], "path": "/b", "response": {"text": "b"}}"#,
                #"{"method": "FROBNICATE", "path": "/c", "response": {"text": "c"}}"#,
                #"{"method": ["propfind", "PURGE", "QUERY"], "path": "/d", "response": {"text": "d"}}"#)
        ]) { fixture in
            let result = fixture.load()
            let errors = result.diagnostics.filter { $0.severity == .error }.map(\.description)
            #expect(
                errors.contains(fixture.table("a.json") + #": routes[0].method: unknown HTTP method "GTE"; did you mean "GET"?"#),
                "\(errors)")
            #expect(
                errors.contains(fixture.table("a.json") + #": routes[1].method[1]: unknown HTTP method "POTS"; did you mean "POST"?"#),
                "\(errors)")
            #expect(
                errors.contains {
                    $0.hasPrefix(fixture.table("a.json") + #": routes[2].method: unknown HTTP method "FROBNICATE"; known: GET, "#)
                }, "\(errors)")
            #expect(errors.count == 3, "\(errors)")
        }
    }
}

/// Files in the wrong folder are said plainly, at check and at start (both load the same way).
@Suite("Files in the wrong folder")
struct WrongFolderTests {
    @Test func aRouteTableUnderTheRootIsAWarningThatSaysWhereItBelongs() throws {
        try withRouteFixture(files: [
            "routes/extra.json": routeTable(#"{"method": "GET", "path": "/x", "response": {"text": "x"}}"#),
            "users/user.json": #"{"id": 1}"#,
        ]) { fixture in
            let result = fixture.load()
            let warnings = result.diagnostics.filter { $0.severity == .warning }
            #expect(warnings.map(\.file) == [fixture.root + "/routes/extra.json"], "\(result.diagnostics)")
            #expect(
                warnings.first?.message.contains("a route table under the mock root is not read; move it to \(fixture.routes)") == true,
                "\(warnings)")
        }
    }

    @Test func aMockFileInTheRoutesFolderSaysToMoveItUnderTheRoot() throws {
        try withRouteFixture(tables: ["mock_api_users_get.json": #"{"id": 1, "name": "Ada"}"#, "plain.json": #"[{"id": 1}]"#]) { fixture in
            let errors = fixture.load().diagnostics.filter { $0.severity == .error }
            #expect(errors.count == 2, "\(errors)")
            for error in errors {
                #expect(
                    error.message.contains("this looks like a mock file, not a route table: move it under the mock root (\(fixture.root))"),
                    "\(error)")
                #expect(!error.message.contains("unknown key"), "\(error)")
            }
        }
    }

    @Test func aRoutesFolderThatIsTheRootIsAnError() throws {
        try withRouteFixture(files: ["mock_api_users_get.json": "[]"]) { fixture in
            for routes in [fixture.root, fixture.root + "/", fixture.folder.path] {
                let result = MockDataLoader(files: fixture.folder.files, root: fixture.root, routes: routes).load()
                #expect(result.snapshot == nil)
                let errors = result.diagnostics.filter { $0.severity == .error }
                #expect(errors.count == 1, "\(routes): \(errors)")
                #expect(errors.first?.message.contains("the routes folder must not be the mock root or hold it") == true, "\(errors)")
            }
        }
    }
}
