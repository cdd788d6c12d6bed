import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdCore
import MockdHTTP
import Testing
import TestSupport

/// A resource as an app uses it: what it posts, it reads back; per session; seeded from the
/// convention file the app already had; reset by the admin API and by a changed seed.
@Suite("Resources")
struct ResourceTests {
    static let path = "/api/v1/sleep/entries"
    static let seedFile = "sleep/mock_api_v1_sleep_entries_get.json"
    static let seed = """
        [
          {"id": 1, "user_id": 3, "started_at": "2024-05-01T22:10:00Z", "quality": 4},
          {"id": 2, "user_id": 5, "started_at": "2024-05-02T23:00:00Z", "quality": 3}
        ]
        """
    static let files = [
        seedFile: seed, "scenarios/empty/mock_api_v1_sleep_entries_get.json": "[]",
        "mock_api_v1_sleep_entries_2_get.json": #"{"from": "file"}"#,
    ]
    static let table =
        #"{"routes": [{"resource": "/api/v1/sleep/entries", "seed": "sleep/mock_api_v1_sleep_entries_get.json", "id": "id"}]}"#

    static func withServer<T>(
        tables: [String: String] = ["x.json": table], configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (RouteServer) async throws -> T
    ) async throws -> T {
        try await withRouteServer(files: files, tables: tables, configure: configure, body)
    }

    static func json(_ result: HTTPResult) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(result.body), options: [.fragmentsAllowed])
    }
    static func ids(_ result: HTTPResult) throws -> [Int] { ((try json(result) as? [[String: Any]]) ?? []).compactMap { $0["id"] as? Int } }
    static func body(_ text: String) -> Data { Data(text.utf8) }
    /// `resource <routes folder>/x.json#0` (the folder as the server was given it).
    static func fromResource(_ source: String?) -> Bool {
        source?.hasPrefix("resource /") == true && source?.hasSuffix("/routes/x.json#0") == true
    }

    @Test func postThenGetShowsIt_ThenPutPatchAndDelete() async throws {
        try await Self.withServer { server in
            let list = try await server.request("GET", Self.path)
            #expect(list.status == 200)
            #expect(Self.fromResource(list.header("X-Mockd-Source")))
            #expect(try Self.ids(list) == [1, 2])

            let created = try await server.request(
                "POST", Self.path, body: Self.body(#"{"user_id": 3, "started_at": "2024-05-03T22:00:00Z"}"#))
            #expect(created.status == 201)
            #expect(created.header("Location") == Self.path + "/3")
            #expect(created.text == #"{"id":3,"user_id":3,"started_at":"2024-05-03T22:00:00Z"}"#)
            #expect(try Self.ids(await server.request("GET", Self.path)) == [1, 2, 3])
            let read = try await server.request("GET", Self.path + "/3")
            #expect(read.status == 200)
            #expect(read.text == created.text)

            // Filters: equality on top-level fields, ANDed.
            #expect(try Self.ids(await server.request("GET", Self.path + "?user_id=3")) == [1, 3])
            #expect(try Self.ids(await server.request("GET", Self.path + "?user_id=3&quality=4")) == [1])
            #expect(try Self.ids(await server.request("GET", Self.path + "?user_id=9")) == [])

            let replaced = try await server.request("PUT", Self.path + "/3", body: Self.body(#"{"user_id": 4}"#))
            #expect(replaced.status == 200)
            #expect(replaced.text == #"{"id":3,"user_id":4}"#)
            let patched = try await server.request("PATCH", Self.path + "/1", body: Self.body(#"{"quality": 5, "started_at": null}"#))
            #expect(patched.status == 200)
            #expect(patched.text == #"{"id":1,"user_id":3,"quality":5}"#)

            let deleted = try await server.request("DELETE", Self.path + "/3")
            #expect(deleted.status == 204)
            #expect(deleted.body.isEmpty)
            let gone = try await server.request("GET", Self.path + "/3")
            #expect(gone.status == 404)
            let report = try gone.jsonObject()
            #expect(report["resource"] as? String == Self.path)
            #expect(report["id"] as? String == "3")
            // The next id is never one that was handed out before.
            let next = try await server.request("POST", Self.path, body: Self.body("{}"))
            #expect(next.header("Location") == Self.path + "/4")
        }
    }

    @Test func errorsLeaveTheStateUnchanged() async throws {
        try await Self.withServer(configure: { $0.maxBodyBytes = 200 }) { server in
            let broken = try await server.request("POST", Self.path, body: Self.body("{\n  \"user_id\": ,\n}"))
            #expect(broken.status == 400)
            #expect((try broken.jsonObject()["error"] as? String)?.contains("line 2, column 14") == true, "\(broken.text)")
            let array = try await server.request("POST", Self.path, body: Self.body("[1]"))
            #expect(array.status == 400)
            #expect(array.text.contains("expected a JSON object"))
            let taken = try await server.request("POST", Self.path, body: Self.body(#"{"id": 2}"#))
            #expect(taken.status == 409)
            let absent = try await server.request("PUT", Self.path + "/99", body: Self.body("{}"))
            #expect(absent.status == 404)
            let renamed = try await server.request("PATCH", Self.path + "/1", body: Self.body(#"{"id": 7}"#))
            #expect(renamed.status == 400)
            let notAllowed = try await server.request("POST", Self.path + "/1", body: Self.body("{}"))
            #expect(notAllowed.status == 405)
            #expect(notAllowed.header("Allow") == "GET, HEAD, PUT, PATCH, DELETE")
            let large = try await server.request("POST", Self.path, body: Data(repeating: UInt8(ascii: " "), count: 1000))
            #expect(large.status == 413)
            #expect(try Self.ids(await server.request("GET", Self.path)) == [1, 2])
            let state = try await server.admin("GET", "/__mockd/resources")
            let copies = ((state.object["resources"] as? [[String: Any]])?.first?["copies"] as? [Any]) ?? ["?"]
            #expect(copies.isEmpty, "a refused write made a copy: \(state.object)")
        }
    }

    @Test func stringIdsGetAUUID() async throws {
        try await withRouteServer(
            files: ["goals.json": #"[{"slug": "walk", "title": "Walk"}]"#],
            tables: ["g.json": #"{"routes": [{"resource": "/api/goals", "seed": "goals.json", "id": "slug"}]}"#]
        ) { server in
            let created = try await server.request("POST", "/api/goals", body: Self.body(#"{"title": "Read"}"#))
            #expect(created.status == 201)
            let slug = try #require(try created.jsonObject()["slug"] as? String)
            #expect(UUID(uuidString: slug) != nil, "\(slug)")
            #expect(created.header("Location") == "/api/goals/" + slug)
            #expect(try await server.request("GET", "/api/goals/walk").status == 200)
        }
    }

    @Test func eachSessionHasItsOwnCopyAndAResetRestoresTheSeed() async throws {
        try await Self.withServer { server in
            let sim1 = ["X-Mock-Session": "sim-1"], sim2 = ["X-Mock-Session": "sim-2"]
            #expect(try await server.request("POST", Self.path, headers: sim1, body: Self.body(#"{"n": 1}"#)).status == 201)
            #expect(try await server.request("DELETE", Self.path + "/1", headers: sim2).status == 204)
            #expect(try await server.request("POST", Self.path, body: Self.body(#"{"n": 0}"#)).status == 201)
            #expect(try Self.ids(await server.request("GET", Self.path, headers: sim1)) == [1, 2, 3])
            #expect(try Self.ids(await server.request("GET", Self.path, headers: sim2)) == [2])
            #expect(try Self.ids(await server.request("GET", Self.path, headers: ["X-Mock-Session": "sim-3"])) == [1, 2])
            #expect(try Self.ids(await server.request("GET", Self.path)) == [1, 2, 3])

            let listed = try await server.admin("GET", "/__mockd/resources")
            let resource = try #require((listed.object["resources"] as? [[String: Any]])?.first)
            #expect(resource["seedItems"] as? Int == 2)
            let copies = (resource["copies"] as? [[String: Any]]) ?? []
            #expect(copies.map { $0["session"] as? String } == [nil, "sim-1", "sim-2"])
            #expect(copies.map { $0["items"] as? Int } == [3, 3, 1])
            let dump = try await server.admin("GET", "/__mockd/resources?path=\(Self.path)&session=sim-2")
            #expect(dump.status == 200)
            #expect((dump.object["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [2])

            #expect(try await server.admin("POST", "/__mockd/reset", body: #"{"session": "sim-1"}"#).status == 200)
            #expect(try Self.ids(await server.request("GET", Self.path, headers: sim1)) == [1, 2])
            #expect(try Self.ids(await server.request("GET", Self.path, headers: sim2)) == [2])
            #expect(try await server.admin("POST", "/__mockd/reset").status == 200)
            #expect(try Self.ids(await server.request("GET", Self.path, headers: sim2)) == [1, 2])
            #expect(try Self.ids(await server.request("GET", Self.path)) == [1, 2])
        }
    }

    @Test func concurrentWritersOnOneSessionLoseNothing() async throws {
        try await Self.withServer { server in
            let clients = 16, posts = 40
            let statuses = try await allAtOnce(clients) { client -> [Int] in
                var locations: [Int] = []
                for post in 0..<posts {
                    let session = client % 2 == 0 ? "busy" : "other"
                    let created = try await server.request(
                        "POST", Self.path, headers: ["X-Mock-Session": session],
                        body: Self.body(#"{"client": \#(client), "post": \#(post)}"#))
                    #expect(created.status == 201)
                    if session == "busy", let id = created.header("Location")?.split(separator: "/").last.flatMap({ Int($0) }) {
                        locations.append(id)
                    }
                }
                return locations
            }.flatMap { $0 }
            #expect(Set(statuses).count == statuses.count)
            #expect(statuses.count == clients / 2 * posts)
            let busy = try Self.ids(await server.request("GET", Self.path, headers: ["X-Mock-Session": "busy"]))
            #expect(busy.count == 2 + clients / 2 * posts)
            #expect(Set(busy).count == busy.count)
            let other = try Self.ids(await server.request("GET", Self.path, headers: ["X-Mock-Session": "other"]))
            #expect(other.count == 2 + clients / 2 * posts)
        }
    }

    @Test func aScenarioOverlaySeedsThatScenariosCopy_AndAResourceMayNameAScenario() async throws {
        let tables = [
            "x.json": Self.table,
            "y.json": #"{"routes": [{"resource": "/api/goals", "scenario": "fresh"}]}"#,
        ]
        try await Self.withServer(tables: tables) { server in
            let empty = ["X-Mock-Scenario": "empty"]
            #expect(try Self.ids(await server.request("GET", Self.path, headers: empty)) == [])
            #expect(
                try await server.request("POST", Self.path, headers: empty, body: Self.body("{}")).header("Location") == Self.path + "/1")
            #expect(try Self.ids(await server.request("GET", Self.path, headers: empty)) == [1])
            #expect(try Self.ids(await server.request("GET", Self.path)) == [1, 2])
            #expect(try await server.request("GET", "/api/goals").status == 404)
            let fresh = try await server.request("GET", "/api/goals", headers: ["X-Mock-Scenario": "fresh"])
            #expect(fresh.status == 200)
            #expect(fresh.text == "[]")
        }
    }

    @Test func aRouteOrFileForTheSameRequestStillWins() async throws {
        let tables = [
            "a.json":
                #"{"routes": [{"method": "POST", "path": "/api/v1/sleep/entries", "match": {"headers": {"X-Fail": "*"}}, "response": {"status": 503, "json": {"down": true}}}]}"#,
            "x.json": Self.table,
        ]
        try await Self.withServer(tables: tables, configure: { $0.globalDelay = .milliseconds(1) }) { server in
            let failed = try await server.request("POST", Self.path, headers: ["X-Fail": "1"], body: Self.body("{}"))
            #expect(failed.status == 503)
            let file = try await server.request("GET", Self.path + "/2")
            #expect(file.text == #"{"from": "file"}"#)
            #expect(Self.fromResource(try await server.request("GET", Self.path + "/1").header("X-Mockd-Source")))
            #expect(try Self.ids(await server.request("GET", Self.path)) == [1, 2])
            let journal = try await server.admin("GET", "/__mockd/requests?path=\(Self.path)/1").object
            #expect(Self.fromResource(RequestWaitTests.entries(journal).first?["source"] as? String))
        }
    }

    @Test func anUnrelatedReloadKeepsTheStateAndAnEditedSeedResetsIt() async throws {
        try await Self.withServer { server in
            #expect(try await server.request("POST", Self.path, body: Self.body("{}")).status == 201)
            try server.write("MockData/mock_api_new_get.json", "{}")
            #expect(server.reload(trigger: "test").ok)
            #expect(try Self.ids(await server.request("GET", Self.path)) == [1, 2, 3])
            try server.write("MockData/" + Self.seedFile, #"[{"id": 10}]"#)
            #expect(server.reload(trigger: "test").ok)
            #expect(try Self.ids(await server.request("GET", Self.path)) == [10])
            #expect(try await server.request("POST", Self.path, body: Self.body("{}")).header("Location") == Self.path + "/11")
        }
    }

    struct SleepEntry: Codable, Sendable, Equatable {
        var id: Int?
        var userId: Int
        var startedAt: Date
        var quality: Int?
    }

    /// What the app sends: its encoder is a plain `JSONEncoder`, so the body model says its keys
    /// and writes its dates itself, as the app's API expects.
    struct NewSleepEntry: Encodable, Sendable {
        let userId: Int
        let startedAt: Date
        enum CodingKeys: String, CodingKey { case userId = "user_id", startedAt = "started_at" }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(userId, forKey: .userId)
            try container.encode(ISO8601DateFormatter().string(from: startedAt), forKey: .startedAt)
        }
    }

    @Test func theAppsAPIClientCreatesAnEntryAndReadsItBack() async throws {
        try await Self.withServer { server in
            let client = APIClient(baseURL: server.baseURL)
            let session = ["X-Mock-Session": "app-1"]
            let started = try #require(ISO8601DateFormatter().date(from: "2024-05-04T21:45:00Z"))
            let created: SleepEntry = try await client.request(
                Self.path, method: .post, body: NewSleepEntry(userId: 3, startedAt: started), headers: session)
            #expect(created.id == 3)
            #expect(created.userId == 3)
            #expect(created.startedAt == started)
            let read: SleepEntry = try await client.request(Self.path + "/3", headers: session)
            #expect(read == created)
            let all: [SleepEntry] = try await client.request(Self.path, headers: session)
            #expect(all.map(\.id) == [1, 2, 3])
            #expect(all.first?.startedAt == ISO8601DateFormatter().date(from: "2024-05-01T22:10:00Z"))
            // On the wire: snake_case and the date as ISO 8601, an integer id.
            let raw = try await server.request("GET", Self.path + "/3", headers: session)
            // (JSONEncoder's key order is its own: the members, not the text.)
            #expect(raw.text.hasPrefix(#"{"id":3,"#))
            for member in [#""user_id":3"#, #""started_at":"2024-05-04T21:45:00Z""#] { #expect(raw.text.contains(member), "\(raw.text)") }
        }
    }
}
