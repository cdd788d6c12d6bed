import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing

/// The app's real `APIClient` against mockd serving the bundled MockData, unchanged.
/// Expected values are read from the MockData files themselves.
@Suite("APIClient against the bundled MockData")
struct APIClientTests {
    /// A bundled MockData file parsed as plain JSON, to compare the decoded models with.
    static func bundled(_ relativePath: String) throws -> Any {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixture.bundledMockData + "/" + relativePath))
        return try JSONSerialization.jsonObject(with: data)
    }

    static func date(_ value: Any?) -> Date? {
        (value as? String).flatMap { ISO8601DateFormatter().date(from: $0) }
    }

    /// Runs `body` with an APIClient whose base URL is a mockd serving the bundled MockData.
    static func withClient(_ body: (APIClient) async throws -> Void) async throws {
        try await withTestServer(files: [:], root: Fixture.bundledMockData) { server in
            try await body(APIClient(baseURL: server.baseURL))
        }
    }

    @Test func health() async throws {
        let expected = try #require(try Self.bundled("mock_api_health_get.json") as? [String: Any])
        try await Self.withClient { client in
            let health: Health = try await client.request("/api/health")
            #expect(health.status == expected["status"] as? String)
            #expect(health.version == expected["version"] as? String)
        }
    }

    @Test func users_DecodeSnakeCaseKeysAndISO8601Dates() async throws {
        let expected = try #require(try Self.bundled("users/mock_api_users_get.json") as? [[String: Any]])
        try await Self.withClient { client in
            let users: [User] = try await client.request("/api/users")
            #expect(users.count == expected.count)
            for (user, raw) in zip(users, expected) {
                #expect(user.id == raw["id"] as? Int)
                #expect(user.firstName == raw["first_name"] as? String)
                #expect(user.lastName == raw["last_name"] as? String)
                #expect(user.email == raw["email"] as? String)
                #expect(user.isActive == raw["is_active"] as? Bool)
                #expect(user.createdAt == Self.date(raw["created_at"]))
            }
        }
    }

    @Test func user123() async throws {
        let expected = try #require(try Self.bundled("users/mock_api_user_123_get.json") as? [String: Any])
        let profile = try #require(expected["profile"] as? [String: Any])
        try await Self.withClient { client in
            let user: UserDetail = try await client.request("/api/user/123")
            #expect(user.id == 123)
            #expect(user.id == expected["id"] as? Int)
            #expect(user.firstName == expected["first_name"] as? String)
            #expect(user.lastLoginAt == Self.date(expected["last_login_at"]))
            #expect(user.profile.displayName == profile["display_name"] as? String)
            #expect(user.profile.avatarUrl.absoluteString == profile["avatar_url"] as? String)
            #expect(user.profile.timeZone == profile["time_zone"] as? String)
        }
    }

    @Test func episodes() async throws {
        let expected = try #require(try Self.bundled("episodes/mock_api_episodes_get.json") as? [String: Any])
        let rawEpisodes = try #require(expected["episodes"] as? [[String: Any]])
        try await Self.withClient { client in
            let page: EpisodePage = try await client.request("/api/episodes")
            #expect(page.episodes.map(\.id) == rawEpisodes.compactMap { $0["id"] as? Int })
            #expect(page.episodes.map(\.title) == rawEpisodes.compactMap { $0["title"] as? String })
            #expect(page.episodes.map(\.durationSeconds) == rawEpisodes.compactMap { $0["duration_seconds"] as? Int })
            #expect(page.episodes.map(\.publishedAt) == rawEpisodes.compactMap { Self.date($0["published_at"]) })
            #expect(page.nextPage == expected["next_page"] as? Int)
        }
    }

    @Test func login_POSTWithABody() async throws {
        let expected = try #require(try Self.bundled("mock_api_v1_login_post.json") as? [String: Any])
        try await Self.withClient { client in
            let token: Token = try await client.request(
                "/api/v1/login", method: .post,
                body: LoginRequest(username: "ada", password: "secret"))
            #expect(token.accessToken == expected["access_token"] as? String)
            #expect(token.tokenType == expected["token_type"] as? String)
            #expect(token.expiresAt == Self.date(expected["expires_at"]))
        }
    }

    @Test func scenarioHeader_ServesTheEmptyOverlay() async throws {
        let expected = try #require(try Self.bundled("scenarios/empty/mock_api_users_get.json") as? [Any])
        try await Self.withClient { client in
            let users: [User] = try await client.request("/api/users", headers: ["X-Mock-Scenario": "empty"])
            #expect(users.count == expected.count)
        }
    }

    @Test func miss_ThrowsHTTPError404WithTheReport() async throws {
        try await Self.withClient { client in
            do {
                let _: [User] = try await client.request("/api/teams")
                Issue.record("a miss decoded as a success")
            } catch NetworkError.httpError(let statusCode, let data) {
                #expect(statusCode == 404)
                let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                #expect(report["file"] as? String == "mock_api_teams_get.json")
                #expect((report["lookedFor"] as? [String])?.contains(Fixture.bundledMockData + "/mock_api_teams_get.json") == true)
            }
        }
    }

    @Test func wrongMethod_ThrowsHTTPError404NamingTheOtherMethod() async throws {
        try await Self.withClient { client in
            do {
                let _: Token = try await client.request("/api/v1/login", method: .get)
                Issue.record("GET of a POST-only mock succeeded")
            } catch NetworkError.httpError(let statusCode, let data) {
                #expect(statusCode == 404)
                let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                let other = report["otherMethods"] as? [[String: String]]
                #expect(other?.contains { $0["method"] == "POST" && $0["file"] == "mock_api_v1_login_post.json" } == true, "\(report)")
            }
        }
    }

    /// What an app's in-bundle mock client computes from the same URL (the naming formula on
    /// `URL.path`) is exactly the file mockd looks for, whatever the endpoint string holds.
    @Test(
        "the 404 names the in-app convention's file",
        arguments: ["/api/teams", "api/teams/7", "/api/users?page=2", "/café/menü", "/api/a b"])
    func miss_NamesTheFileTheAppConventionUses(endpoint: String) async throws {
        try await withTestServer(files: [:], root: Fixture.bundledMockData) { server in
            let path = server.baseURL.appendingPathComponent(endpoint).path
            let expected = "mock" + path.replacingOccurrences(of: "/", with: "_") + "_" + "GET".lowercased() + ".json"
            do {
                let _: [User] = try await APIClient(baseURL: server.baseURL).request(endpoint)
                Issue.record("\(endpoint) answered 2xx")
            } catch NetworkError.httpError(let statusCode, let data) {
                #expect(statusCode == 404)
                let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                #expect(report["file"] as? String == expected)
            }
        }
    }
}
