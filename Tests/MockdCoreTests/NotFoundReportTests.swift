import Foundation
import MockdCore
import Testing

@Suite("NotFoundReport")
struct NotFoundReportTests {
    static let files: [String: String] = [
        "users/mock_api_users_get.json": "[]",
        "users/mock_api_users_post.json": #"{"created": true}"#,
        "users/mock_api_users_delete.json": "{}",
        "mock_api_user_123_get.json": "{}",
        "mock_api_episodes_get.json": "{}",
        "mock_totally_unrelated_thing_get.json": "{}",
        "scenarios/empty/mock_api_users_get.json": "[]",
    ]

    /// The report as JSON, plus the response it came in.
    static func report(_ request: MockRequest, scenario: String = "default", in snapshot: Snapshot) throws -> (
        json: [String: Any], response: BuiltResponse
    ) {
        let response = NotFoundReport.response(for: request, scenario: scenario, in: snapshot)
        let object = try JSONSerialization.jsonObject(with: Data(response.body))
        return (try #require(object as? [String: Any]), response)
    }

    @Test func report_IsA404JSONResponse() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let (json, response) = try Self.report(.make(method: "GET", path: "/api/nothing"), in: snapshot)
            #expect(response.status == 404)
            #expect(response.source == "404")
            #expect(response.headers.first(named: "Content-Type") == "application/json; charset=utf-8")
            #expect(json["method"] as? String == "GET")
            #expect(json["path"] as? String == "/api/nothing")
            #expect((json["error"] as? String)?.contains("GET /api/nothing") == true)
        }
    }

    @Test func report_NamesTheFileItLookedForAndWhere() throws {
        try withSnapshot(Self.files) { snapshot, folder in
            let (json, _) = try Self.report(.make(method: "PUT", path: "/api/user/7"), in: snapshot)
            #expect(json["file"] as? String == "mock_api_user_7_put.json")
            #expect(json["scenario"] as? String == "default")
            let lookedFor = try #require(json["lookedFor"] as? [String])
            #expect(lookedFor.contains(folder.path + "/mock_api_user_7_put.json"), "\(lookedFor)")
            #expect((json["hint"] as? String)?.contains(folder.path + "/mock_api_user_7_put.json") == true)
        }
    }

    @Test func report_InAScenarioLooksInTheOverlayFirst() throws {
        try withSnapshot(Self.files) { snapshot, folder in
            let (json, _) = try Self.report(
                .make(method: "GET", path: "/api/episodes/9", scenario: "empty"), scenario: "empty", in: snapshot)
            #expect(json["scenario"] as? String == "empty")
            let lookedFor = try #require(json["lookedFor"] as? [String])
            #expect(
                lookedFor == [
                    folder.path + "/scenarios/empty/mock_api_episodes_9_get.json",
                    folder.path + "/mock_api_episodes_9_get.json",
                ])
        }
    }

    @Test func report_ListsOtherMethodsForTheSamePath() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let (json, _) = try Self.report(.make(method: "PUT", path: "/api/users"), in: snapshot)
            let other = try #require(json["otherMethods"] as? [[String: String]])
            let pairs = Set(other.map { "\($0["method"] ?? "?") \($0["file"] ?? "?")" })
            #expect(pairs == ["GET mock_api_users_get.json", "POST mock_api_users_post.json", "DELETE mock_api_users_delete.json"])
        }
    }

    @Test func report_ForHEADLooksForTheGetFileAndDoesNotOfferGet() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let (json, _) = try Self.report(.make(method: "HEAD", path: "/api/episode"), in: snapshot)
            #expect(json["file"] as? String == "mock_api_episode_get.json")
            let other = try #require(json["otherMethods"] as? [[String: String]])
            #expect(other.isEmpty, "\(other)")
        }
    }

    @Test func report_ListsNamesASmallEditAway() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            // mock_api_user_get.json is one edit from mock_api_users_get.json; every other name is more than two away.
            let (json, _) = try Self.report(.make(method: "GET", path: "/api/user"), in: snapshot)
            let near = try #require(json["nearNames"] as? [String])
            #expect(near == ["mock_api_users_get.json"])
        }
    }

    @Test func report_FindsATypoInThePath() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            // GET /api/episodez: one substitution from the episodes file.
            let (json, _) = try Self.report(.make(method: "GET", path: "/api/episodez"), in: snapshot)
            let near = try #require(json["nearNames"] as? [String])
            #expect(near == ["mock_api_episodes_get.json"])
        }
    }

    @Test func report_HasNoNearNamesForAFarMiss() throws {
        try withSnapshot(Self.files) { snapshot, folder in
            let (json, _) = try Self.report(.make(method: "GET", path: "/completely/different/endpoint"), in: snapshot)
            #expect((json["nearNames"] as? [String])?.isEmpty == true)
            #expect((json["otherMethods"] as? [Any])?.isEmpty == true)
            #expect(json["hint"] as? String == "create \(folder.path)/mock_completely_different_endpoint_get.json with the JSON to answer")
        }
    }

    @Test func report_ListsAtMostFiveNearNamesClosestFirst() throws {
        var files: [String: String] = [:]
        for letter in "abcdefg" { files["mock_api_item\(letter)_get.json"] = "{}" }
        files["mock_api_itemxy_get.json"] = "{}"
        try withSnapshot(files) { snapshot, _ in
            let (json, _) = try Self.report(.make(method: "GET", path: "/api/itemz"), in: snapshot)
            let near = try #require(json["nearNames"] as? [String])
            #expect(near.count == 5)
            // Seven names are one edit away and sort by name; the two-edit name comes after them, so it is cut.
            #expect(
                near == [
                    "mock_api_itema_get.json", "mock_api_itemb_get.json", "mock_api_itemc_get.json",
                    "mock_api_itemd_get.json", "mock_api_iteme_get.json",
                ])
        }
    }

    @Test func report_IsTheSameForTheSameMiss() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let first = NotFoundReport.response(for: .make(path: "/api/x"), scenario: "default", in: snapshot)
            let second = NotFoundReport.response(for: .make(path: "/api/x"), scenario: "default", in: snapshot)
            let other = NotFoundReport.response(for: .make(path: "/api/x"), scenario: "empty", in: snapshot)
            #expect(first.body == second.body)
            #expect(first.body != other.body)
        }
    }

    /// The file a 404 tells the user to create must be one the loader then serves.
    @Test("the suggested file is servable", arguments: MockFileName.knownMethods)
    func report_SuggestsAFileTheLoaderServes(method: String) throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let (json, _) = try Self.report(.make(method: method, path: "/api/teams"), in: snapshot)
            let file = try #require(json["file"] as? String)
            guard case .mock = MockFileName.parse(file) else {
                Issue.record("\(method): the report asks for \(file), which the loader calls \(MockFileName.parse(file))")
                return
            }
        }
    }

    /// A method no file can be named for gets 501 naming the fix (a route), not a 404 asking
    /// for `mock_api_teams_brew.json`, a name the loader would refuse.
    @Test func resolver_ForAnUnknownMethod_Answers501SuggestingARoute() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let answer = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(.make(method: "BREW", path: "/api/teams"))
            guard case .built(let built) = answer.response else {
                Issue.record("expected a built 501, got \(answer.source)")
                return
            }
            #expect(built.status == 501)
            #expect(answer.isMiss, "a proxy may still answer it")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(built.body)) as? [String: Any])
            let error = try #require(json["error"] as? String)
            #expect(error.contains("\"method\": \"BREW\""), "\(error)")
            #expect(!error.contains("mock_api_teams_brew.json"))
        }
    }
}

extension NotFoundReportTests {
    /// A misnamed file on disk is the likely reason for a miss: the 404 names it and why.
    @Test(arguments: [
        ("/api/user", "mock_api_user_get.josn", "extension .josn"),
        ("/api/users", "users/mock_api_users_GET.json", "lower case"),
        ("/api/feed", "Mock_api_feed_get.json", "case-sensitive"),
    ])
    func report_NamesMisnamedFilesAndWhyTheyAreNotServed(path: String, file: String, why: String) throws {
        try withMemoryFolder([
            "mock_api_user_get.josn": "{}", "users/mock_api_users_GET.json": "[]", "Mock_api_feed_get.json": "{}",
            "mock_api_other_get.json": "{}",
        ]) { folder in
            let loaded = MockDataLoader(files: folder.files, root: folder.path).load()
            let snapshot = try #require(loaded.snapshot)
            // Each is also a warning at load, the capital M included.
            #expect(
                loaded.diagnostics.contains { $0.severity == .warning && $0.file.hasSuffix("/" + file) && $0.message.contains(why) },
                "\(loaded.diagnostics)")
            let (json, _) = try Self.report(.make(method: "GET", path: path), in: snapshot)
            let notServed = try #require(json["notServed"] as? [[String: String]])
            // Closest first: /api/user is also one letter from users/mock_api_users_GET.json.
            #expect(notServed.contains { $0["file"] == file && $0["why"]?.contains(why) == true }, "\(notServed)")
            #expect(!notServed.contains { $0["file"] == "mock_api_other_get.json" })
            let closest = try #require(notServed.first?["file"])
            #expect((json["hint"] as? String)?.hasPrefix("rename \(folder.path)/\(closest) (") == true, "\(json["hint"] ?? "")")
        }
    }

    @Test func report_ListsNoUnservedFileForAnUnrelatedMiss() throws {
        try withMemoryFolder(["mock_api_user_get.josn": "{}", "mock_api_other_get.json": "{}"]) { folder in
            let snapshot = try #require(MockDataLoader(files: folder.files, root: folder.path).load().snapshot)
            let (json, _) = try Self.report(.make(method: "GET", path: "/api/totally/different"), in: snapshot)
            #expect((json["notServed"] as? [Any])?.isEmpty == true)
        }
    }

    /// The misspelt file of the same path comes first, ahead of another path's file two edits
    /// away; every not-served file meant for this request is listed, the hidden `.json.json` too.
    @Test func report_PutsTheFilesMeantForThisRequestFirst() throws {
        try withMemoryFolder([
            "mock_api_meals_get.josn": "{}", "mock_api_goals_Get.json": "{}",
            "mock_api_profile_get.json.json": "{}", "old/mock_api_profile_GET.json": "{}",
        ]) { folder in
            let loaded = MockDataLoader(files: folder.files, root: folder.path).load()
            let snapshot = try #require(loaded.snapshot)
            let (meals, _) = try Self.report(.make(method: "GET", path: "/api/meals"), in: snapshot)
            let mealFiles = try #require(meals["notServed"] as? [[String: String]]).map { $0["file"] ?? "" }
            #expect(mealFiles.first == "mock_api_meals_get.josn", "\(mealFiles)")
            #expect(
                (meals["hint"] as? String)?.hasPrefix("rename \(folder.path)/mock_api_meals_get.josn (") == true, "\(meals["hint"] ?? "")")

            #expect(loaded.diagnostics.contains { $0.file.hasSuffix("/mock_api_profile_get.json.json") }, "\(loaded.diagnostics)")
            let (profile, _) = try Self.report(.make(method: "GET", path: "/api/profile"), in: snapshot)
            let profileFiles = try #require(profile["notServed"] as? [[String: String]]).map { $0["file"] ?? "" }
            #expect(Set(profileFiles.prefix(2)) == ["mock_api_profile_get.json.json", "old/mock_api_profile_GET.json"], "\(profileFiles)")
        }
    }
}
