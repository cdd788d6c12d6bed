import Foundation
import MockdCore
import MockdDisk
import Testing
import TestSupport

@Suite("MockDataLoader")
struct MockDataLoaderTests {
    static let usersJSON = #"[{"id": 1, "first_name": "Ada"}]"#
    static let userJSON = #"{"id": 123, "first_name": "Alan"}"#
    static let emptyJSON = "[]\n"

    @Test func load_IndexesFilesInSubFolders() throws {
        try withTemporaryFolder([
            "users/mock_api_users_get.json": Self.usersJSON,
            "users/deeper/still/mock_api_user_123_get.json": Self.userJSON,
            "mock_api_health_get.json": #"{"status": "ok"}"#,
        ]) { folder in
            let result = MockDataLoader(files: DiskFiles(), root: folder.path).load()
            #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
            let snapshot = try #require(result.snapshot)
            #expect(snapshot.fileCount == 3)
            #expect(Set(snapshot.files.keys) == ["mock_api_users_get.json", "mock_api_user_123_get.json", "mock_api_health_get.json"])
            #expect(snapshot.files["mock_api_user_123_get.json"]?.relativePath == "users/deeper/still/mock_api_user_123_get.json")
            #expect(snapshot.overlays.isEmpty)
        }
    }

    @Test func load_PreparesResponsesWithTheFileBytesAndHeaders() throws {
        try withTemporaryFolder(["users/mock_api_users_get.json": Self.usersJSON]) { folder in
            let snapshot = try #require(MockDataLoader(files: DiskFiles(), root: folder.path).load().snapshot)
            let response = try #require(snapshot.files["mock_api_users_get.json"]?.response)
            #expect(response.status == 200)
            #expect(response.body.array == Array(Self.usersJSON.utf8))
            #expect(response.headers.first(named: "Content-Type") == "application/json; charset=utf-8")
            #expect(response.headers.first(named: "X-Mockd-Source") == "file users/mock_api_users_get.json")
            #expect(response.source == "file users/mock_api_users_get.json")
            #expect(snapshot.preparedResponses[response.id] === response)
        }
    }

    @Test func load_PutsScenarioFoldersInOverlays() throws {
        try withTemporaryFolder([
            "users/mock_api_users_get.json": Self.usersJSON,
            "scenarios/empty/mock_api_users_get.json": Self.emptyJSON,
            "scenarios/empty/nested/mock_api_episodes_get.json": Self.emptyJSON,
            "scenarios/error/mock_api_users_get.json": #"{"error": "boom"}"#,
        ]) { folder in
            let result = MockDataLoader(files: DiskFiles(), root: folder.path).load()
            // An overlay repeating a base file's name is the point of an overlay, not an error.
            #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
            let snapshot = try #require(result.snapshot)
            #expect(Set(snapshot.files.keys) == ["mock_api_users_get.json"])
            #expect(snapshot.files["mock_api_users_get.json"]?.response.body.array == Array(Self.usersJSON.utf8))
            #expect(Set(snapshot.overlays.keys) == ["empty", "error"])
            #expect(snapshot.scenarios == ["empty", "error"])
            #expect(
                Set(snapshot.overlays["empty"].map { Array($0.keys) } ?? []) == ["mock_api_users_get.json", "mock_api_episodes_get.json"])
            #expect(snapshot.overlays["empty"]?["mock_api_users_get.json"]?.response.body.array == Array(Self.emptyJSON.utf8))
            #expect(
                snapshot.overlays["empty"]?["mock_api_episodes_get.json"]?.relativePath
                    == "scenarios/empty/nested/mock_api_episodes_get.json")
            #expect(snapshot.fileCount == 4)
        }
    }

    @Test func load_ReportsInvalidJSONWithFileLineAndColumn() throws {
        // The stray comma is on line 3.
        let broken = "{\n  \"id\": 1,\n  \"name\": \"Ada\",,\n  \"x\": 2\n}\n"
        try withTemporaryFolder(["users/mock_api_users_get.json": broken]) { folder in
            let result = MockDataLoader(files: DiskFiles(), root: folder.path).load()
            #expect(result.snapshot == nil)
            let diagnostic = try #require(result.diagnostics.first)
            #expect(result.diagnostics.count == 1)
            #expect(diagnostic.severity == .error)
            #expect(diagnostic.file == folder.path + "/users/mock_api_users_get.json")
            let location = try #require(diagnostic.location)
            let match = try #require(location.wholeMatch(of: /line (\d+), column (\d+)/), "location: \(location)")
            #expect(Int(match.1) == 3, "\(diagnostic)")
            let brokenLine = broken.split(separator: "\n", omittingEmptySubsequences: false)[2]
            #expect((1...brokenLine.count + 1).contains(Int(match.2) ?? 0), "\(diagnostic)")
            #expect(diagnostic.message.contains("invalid JSON"))
            #expect(diagnostic.description.hasPrefix(folder.path + "/users/mock_api_users_get.json: line 3, column "))
        }
    }

    /// RFC 8259 JSON only: what a strict client (JSON.parse, older JSONSerialization) would reject
    /// must not pass `mockd check` and then break that client.
    @Test(
        "not strict JSON",
        arguments: [
            ("[1, 2,]", 1),
            ("{\n  \"status\": \"ok\",\n}\n", 3),
            ("{\"a\": 1} {\"b\": 2}", 1),
            ("{\"a\": NaN}", 1),
            ("// comment\n{}", 1),
            ("{'a': 1}", 1),
            ("[01]", 1),
        ])
    func load_RejectsWhatIsNotStrictJSON(text: String, line: Int) throws {
        try withTemporaryFolder(["mock_api_users_get.json": text]) { folder in
            let result = MockDataLoader(files: DiskFiles(), root: folder.path).load()
            #expect(result.snapshot == nil, "accepted \(text.debugDescription)")
            let diagnostic = try #require(result.diagnostics.first)
            #expect(diagnostic.location?.hasPrefix("line \(line), column ") == true, "\(diagnostic)")
        }
    }

    @Test(
        "strict JSON of every kind",
        arguments: ["[]", "{}", "\"text\"", "42", "-1.5e3", "true", "null", " \n{\"a\": [1, {\"b\": null}], \"c\": \"\\u00e9\"}\n "])
    func load_AcceptsAnyJSONValue(text: String) throws {
        try withTemporaryFolder(["mock_api_users_get.json": text]) { folder in
            let result = MockDataLoader(files: DiskFiles(), root: folder.path).load()
            #expect(result.diagnostics.isEmpty, "\(text.debugDescription): \(result.diagnostics)")
            #expect(result.snapshot?.files["mock_api_users_get.json"]?.response.body.array == Array(text.utf8))
        }
    }

    @Test func load_ReportsAnEmptyFileAsInvalidJSON() throws {
        try withTemporaryFolder(["mock_api_users_get.json": ""]) { folder in
            let result = MockDataLoader(files: DiskFiles(), root: folder.path).load()
            #expect(result.snapshot == nil)
            let diagnostic = try #require(result.diagnostics.first)
            #expect(diagnostic.location == "line 1, column 1")
            #expect(diagnostic.message.contains("empty"))
        }
    }

    @Test func load_ReportsADuplicateNameNamingBothFiles() throws {
        try withTemporaryFolder([
            "a/mock_api_users_get.json": Self.usersJSON,
            "b/mock_api_users_get.json": Self.emptyJSON,
        ]) { folder in
            let result = MockDataLoader(files: DiskFiles(), root: folder.path).load()
            #expect(result.snapshot == nil)
            let errors = result.diagnostics.filter { $0.severity == .error }
            #expect(errors.count == 1)
            let text = errors.map(\.description).joined(separator: "\n")
            #expect(text.contains(folder.path + "/a/mock_api_users_get.json"), "\(text)")
            #expect(text.contains(folder.path + "/b/mock_api_users_get.json"), "\(text)")
        }
    }

    @Test func load_ReportsADuplicateInsideOneScenario() throws {
        try withTemporaryFolder([
            "scenarios/empty/a/mock_api_users_get.json": Self.emptyJSON,
            "scenarios/empty/b/mock_api_users_get.json": Self.emptyJSON,
            // The same name in another scenario is fine.
            "scenarios/error/mock_api_users_get.json": Self.emptyJSON,
        ]) { folder in
            let result = MockDataLoader(files: DiskFiles(), root: folder.path).load()
            #expect(result.snapshot == nil)
            let errors = result.diagnostics.filter { $0.severity == .error }
            #expect(errors.count == 1)
            let text = errors.map(\.description).joined(separator: "\n")
            #expect(text.contains("scenarios/empty/a/mock_api_users_get.json"), "\(text)")
            #expect(text.contains("scenarios/empty/b/mock_api_users_get.json"), "\(text)")
            #expect(!text.contains("scenarios/error/"), "\(text)")
        }
    }

    @Test func load_ListsEveryErrorNotJustTheFirst() throws {
        try withTemporaryFolder([
            "mock_api_health_get.json": "{\"status\": \n",
            "users/mock_api_users_get.json": "[1 2]",
            "x/mock_api_user_123_get.json": Self.userJSON,
            "y/mock_api_user_123_get.json": Self.userJSON,
            "mock_api_episodes_get.json": "[]",
        ]) { folder in
            let result = MockDataLoader(files: DiskFiles(), root: folder.path).load()
            #expect(result.snapshot == nil)
            let errors = result.diagnostics.filter { $0.severity == .error }
            #expect(errors.count == 3, "\(result.diagnostics)")
            let files = Set(errors.map(\.file))
            #expect(files.contains(folder.path + "/mock_api_health_get.json"))
            #expect(files.contains(folder.path + "/users/mock_api_users_get.json"))
            #expect(
                errors.contains {
                    $0.description.contains("x/mock_api_user_123_get.json") && $0.description.contains("y/mock_api_user_123_get.json")
                })
            let description = ConfigurationError(result.diagnostics).description
            #expect(description.hasPrefix("3 configuration errors:"), "\(description)")
        }
    }

    @Test func load_WarnsAboutUnreachableNamesAndStillServes() throws {
        try withTemporaryFolder([
            "mock_api_users_get.json": Self.usersJSON,
            "mock_api_users_GET.json": Self.usersJSON,
            "mock_api_users_fetch.json": Self.usersJSON,
            "notes/mock_api_users_get.txt": "not served",
            "users/user.json": Self.userJSON,
            "README.md": "# mocks",
        ]) { folder in
            let result = MockDataLoader(files: DiskFiles(), root: folder.path).load()
            let snapshot = try #require(result.snapshot)
            #expect(Set(snapshot.files.keys) == ["mock_api_users_get.json"])
            #expect(result.diagnostics.allSatisfy { $0.severity == .warning }, "\(result.diagnostics)")
            #expect(
                Set(result.diagnostics.map(\.file)) == [
                    folder.path + "/mock_api_users_GET.json",
                    folder.path + "/mock_api_users_fetch.json",
                    folder.path + "/notes/mock_api_users_get.txt",
                ])
            #expect(result.diagnostics.allSatisfy { $0.description.hasPrefix("warning: ") && $0.message.hasPrefix("not served") })
            #expect(snapshot.warnings == result.diagnostics)
        }
    }

    /// Files that are not mock names (route bodies, READMEs) are not parsed, so broken JSON there is no error.
    @Test func load_DoesNotCheckFilesThatAreNotMockNames() throws {
        try withTemporaryFolder([
            "mock_api_users_get.json": Self.usersJSON,
            "bodies/user.json": "{ not json",
        ]) { folder in
            let result = MockDataLoader(files: DiskFiles(), root: folder.path).load()
            #expect(result.diagnostics.isEmpty)
            #expect(result.snapshot?.fileCount == 1)
        }
    }

    @Test func load_SkipsHiddenFilesAndFolders() throws {
        try withTemporaryFolder([
            "mock_api_users_get.json": Self.usersJSON,
            ".git/mock_api_users_get.json": "{ broken",
            ".mock_api_user_1_get.json": "{ broken",
        ]) { folder in
            let result = MockDataLoader(files: DiskFiles(), root: folder.path).load()
            #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
            #expect(result.snapshot.map { Set($0.files.keys) } == ["mock_api_users_get.json"])
        }
    }

    @Test func load_FailsWhenTheRootDoesNotExist() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("mockd-missing-\(UUID().uuidString)").path
        let result = MockDataLoader(files: DiskFiles(), root: missing).load()
        #expect(result.snapshot == nil)
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.file == missing)
        #expect(result.diagnostics.first?.severity == .error)
    }

    @Test func load_ShowsTheRootWithoutTrailingSlash() throws {
        try withTemporaryFolder(["mock_api_users_get.json": "{"]) { folder in
            let result = MockDataLoader(files: DiskFiles(), root: folder.path + "/").load()
            #expect(result.diagnostics.first?.file == folder.path + "/mock_api_users_get.json")
        }
    }
}
