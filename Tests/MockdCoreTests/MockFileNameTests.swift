import MockdCore
import Testing
import Foundation

@Suite("MockFileName")
struct MockFileNameTests {
    // MARK: - forRequest: the naming table (README, "Files by convention")

    struct Row: Sendable, CustomTestStringConvertible {
        let method: String
        /// As the adapter passes it: percent-decoded, query removed.
        let path: String
        let file: String
        var testDescription: String { "\(method) \(path) → \(file)" }
    }

    @Test(
        "the naming table",
        arguments: [
            Row(method: "GET", path: "/api/users", file: "mock_api_users_get.json"),
            Row(method: "GET", path: "/api/user/123", file: "mock_api_user_123_get.json"),
            Row(method: "POST", path: "/api/v1/sleep", file: "mock_api_v1_sleep_post.json"),
            // `GET /api/users?page=2`: the adapter strips the query, the core sees the bare path.
            Row(method: "GET", path: "/api/users", file: "mock_api_users_get.json"),
            Row(method: "GET", path: "/api/users/", file: "mock_api_users_get.json"),
        ])
    func forRequest_FollowsTheSpecTable(row: Row) {
        #expect(MockFileName.forRequest(method: row.method, path: row.path) == row.file)
    }

    @Test func forRequest_IsTheSpecFormula_ForPathsWithoutTrailingSlash() {
        // name = "mock" + path.replacingOccurrences(of: "/", with: "_") + "_" + method.lowercased() + ".json"
        for (method, path) in [("GET", "/api/users"), ("DELETE", "/api/v2/items/9"), ("PATCH", "/x")] {
            let formula = "mock" + path.replacingOccurrences(of: "/", with: "_") + "_" + method.lowercased() + ".json"
            #expect(MockFileName.forRequest(method: method, path: path) == formula)
        }
    }

    @Test func forRequest_LowerCasesTheMethod() {
        #expect(MockFileName.forRequest(method: "PATCH", path: "/api/users") == "mock_api_users_patch.json")
        #expect(MockFileName.forRequest(method: "Get", path: "/api/users") == "mock_api_users_get.json")
    }

    /// `HEAD /api/users` names its own file; falling back to the GET file is the resolver's job.
    @Test func forRequest_HEADNamesTheHeadFile() {
        #expect(MockFileName.forRequest(method: "HEAD", path: "/api/users") == "mock_api_users_head.json")
    }

    // MARK: - forRequest: odd paths

    @Test(
        "odd paths",
        arguments: [
            Row(method: "GET", path: "/", file: "mock__get.json"),
            // One trailing slash is dropped: `//` becomes `/`.
            Row(method: "GET", path: "//", file: "mock__get.json"),
            // Only one: `/api/users//` keeps the second.
            Row(method: "GET", path: "/api/users//", file: "mock_api_users__get.json"),
            Row(method: "GET", path: "//api/users", file: "mock__api_users_get.json"),
            Row(method: "GET", path: "/api/v1.2/report.final", file: "mock_api_v1.2_report.final_get.json"),
            Row(method: "GET", path: "/../etc/passwd", file: "mock_.._etc_passwd_get.json"),
            Row(method: "GET", path: "/café", file: "mock_café_get.json"),
            Row(method: "GET", path: "/日本/ユーザー", file: "mock_日本_ユーザー_get.json"),
            // `/a%2Fb` arrives decoded as `/a/b`.
            Row(method: "GET", path: "/a/b", file: "mock_a_b_get.json"),
            Row(method: "GET", path: "/my file/x y", file: "mock_my file_x y_get.json"),
            Row(method: "PUT", path: "/api/users/", file: "mock_api_users_put.json"),
        ])
    func forRequest_HandlesOddPaths(row: Row) {
        #expect(MockFileName.forRequest(method: row.method, path: row.path) == row.file)
    }

    /// The rule maps `_` and `/` alike, so these two requests share one file (a property of the
    /// convention apps already use, kept on purpose).
    @Test func forRequest_UnderscoreAndSlashShareAFile() {
        #expect(MockFileName.forRequest(method: "GET", path: "/a_b") == MockFileName.forRequest(method: "GET", path: "/a/b"))
    }

    /// Unicode scalars are kept as they are (no normalisation of the bytes).
    @Test func forRequest_KeepsDecomposedUnicodeScalars() {
        let decomposed = "/cafe\u{301}"
        let name = MockFileName.forRequest(method: "GET", path: decomposed)
        #expect(Array(name.unicodeScalars) == Array("mock_cafe\u{301}_get.json".unicodeScalars))
    }

    // MARK: - parse

    @Test(
        "mock names",
        arguments: [
            ("mock_api_users_get.json", "GET", "_api_users"),
            ("mock_api_user_123_get.json", "GET", "_api_user_123"),
            ("mock_api_v1_sleep_post.json", "POST", "_api_v1_sleep"),
            ("mock_api_users_head.json", "HEAD", "_api_users"),
            ("mock__get.json", "GET", "_"),
            ("mock_café_delete.json", "DELETE", "_café"),
            ("mock_api_v1.2_options.json", "OPTIONS", "_api_v1.2"),
        ])
    func parse_RecognisesMockNames(name: String, method: String, pathStem: String) {
        #expect(MockFileName.parse(name) == .mock(method: method, pathStem: pathStem))
    }

    @Test func parse_RoundTripsForRequest() {
        for (method, path) in [("GET", "/api/users"), ("POST", "/api/v1/login"), ("PATCH", "/"), ("DELETE", "/a/b/c")] {
            let name = MockFileName.forRequest(method: method, path: path)
            let stem = path == "/" ? "_" : path.replacingOccurrences(of: "/", with: "_")
            #expect(MockFileName.parse(name) == .mock(method: method, pathStem: stem))
        }
    }

    @Test("other files", arguments: ["users.json", "README.md", "users/user.json", "avatar.png", "mockup.png", "Mock_api_users_get.json"])
    func parse_LeavesOtherFilesAlone(name: String) {
        #expect(MockFileName.parse(name) == .other)
    }

    /// Each reason a mock-looking name can never be reached, with a word of its message.
    @Test(
        "unreachable names",
        arguments: [
            ("mock_api_users_get.txt", ".json"),
            ("mock_api_users_get.JSON", ".json"),
            ("mockapi.json", "_<method>"),
            ("mock_api_users_fetch.json", "not an HTTP method"),
            ("mock_api_users_GET.json", "lower case"),
            ("mock_api_users_Post.json", "lower case"),
            ("mock_get.json", "no path"),
            ("mockapi_users_get.json", "must start with 'mock_'"),
        ])
    func parse_ExplainsUnreachableNames(name: String, reasonContains: String) {
        guard case .unreachable(let reason) = MockFileName.parse(name) else {
            Issue.record("\(name) parsed as \(MockFileName.parse(name)), expected .unreachable")
            return
        }
        #expect(reason.contains(reasonContains), "\(name): \(reason)")
    }

    @Test func parse_SuggestsTheLowerCaseMethod() {
        guard case .unreachable(let reason) = MockFileName.parse("mock_api_users_GET.json") else {
            Issue.record("expected .unreachable")
            return
        }
        #expect(reason.contains("'get'"))
    }
}
