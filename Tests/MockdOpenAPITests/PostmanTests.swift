import Foundation
import MockdCore
import MockdDisk
import MockdOpenAPI
import Testing
import TestSupport

/// Postman collections (Tests/Fixtures/postman, v2.1 and v2.0) served by `--openapi` from a real
/// mockd: each request's saved examples, chosen with `Prefer: example=NAME`.
@Suite struct PostmanTests {
    static func collection(_ name: String) -> String { SharedDocuments.path("../postman/\(name).postman_collection.json") }

    @Test func savedExamplesAreServed_v2_1() async throws {
        try await ServerTests.withServer("../postman/users.postman_collection.json") { send in
            // A request in a folder, `{{baseUrl}}` stripped; Postman's Content-Length and Date are not repeated.
            let list = try await send("GET", "/users", [:], nil)
            #expect(list.status == 200)
            #expect(list.header("Content-Type") == "application/json; charset=utf-8")
            #expect(list.header("Content-Length") == "\(list.body.count)")
            #expect(list.header("X-Mockd-Source") == #"postman users.postman_collection.json GET /users example "All users""#)
            #expect((try list.json() as? [[String: Any]])?.count == 2)
            // The query is not part of the path.
            #expect(try await send("GET", "/users?page=7", [:], nil).status == 200)

            // `:id` is a path parameter; the first 2xx example answers though a 404 is saved before it.
            let found = try await send("GET", "/users/42", [:], nil)
            #expect(found.status == 200)
            #expect((try found.json() as? [String: Any])?["name"] as? String == "Ada")
            let missing = try await send("GET", "/users/42", ["Prefer": "example=Not found"], nil)
            #expect(missing.status == 404)
            #expect(missing.header("X-Error") == "missing")
            #expect(missing.header("X-Disabled") == nil)
            #expect(missing.header("Preference-Applied") == "example=Not found")
            #expect((try missing.json() as? [String: Any])?["error"] as? String == "no such user")

            // No saved example: 501 in mockd's JSON, saying how to get one.
            let create = try await send("POST", "/users", ["Content-Type": "application/json"], Data("{}".utf8))
            #expect(create.status == 501)
            let error = try #require(try create.json() as? [String: Any])
            #expect(error["error"] as? String == "POST /users has no saved example in users.postman_collection.json")
            #expect((error["hint"] as? String)?.contains("Save Response") == true)

            // A full URL's host is dropped, its path kept; the preview language gives the type.
            let health = try await send("GET", "/v1/health", [:], nil)
            #expect(health.status == 200)
            #expect(health.header("Content-Type") == "text/plain")
            #expect(health.header("X-Version") == "7")
            #expect(String(decoding: health.body, as: UTF8.self) == "ok")
            #expect(try await send("DELETE", "/users", [:], nil).status == 405)
        }
    }

    @Test func savedExamplesAreServed_v2_0() async throws {
        try await ServerTests.withServer("../postman/orders.postman_collection.json") { send in
            // A URL string, `{{orderId}}` a path parameter.
            let order = try await send("GET", "/api/orders/A-9?expand=items", [:], nil)
            #expect(order.status == 200)
            #expect((try order.json() as? [String: Any])?["items"] as? Int == 3)
            // Headers saved as text, one a line.
            let cancel = try await send("POST", "/api/orders/5/cancel", [:], nil)
            #expect(cancel.status == 202)
            #expect(cancel.header("Content-Type") == "application/json")
            #expect(cancel.header("X-Request-Id") == "r-1")
        }
    }

    /// A scenario named like an example picks it, as `Prefer: example=` does.
    @Test func aScenarioPicksTheExampleOfItsName() throws {
        let document = try String(contentsOfFile: Self.collection("users"), encoding: .utf8)
        try withDocument(document, name: "users.json") { fixture throws in
            #expect(fixture.snapshot.operations.documents.map(\.name) == ["postman users.json"])
            #expect(fixture.answer("GET", "/users/1").status == 200)
            #expect(fixture.answer("GET", "/users/1", headers: [("X-Mock-Scenario", "Not found")]).status == 404)
        }
    }

    /// Every problem is named with its place in the collection, and nothing is served.
    @Test func aBrokenCollectionNamesEveryProblem() throws {
        let path = Self.collection("broken")
        let result = MockDataLoader(files: DiskFiles(), root: "/nonexistent", operationSources: [OpenAPIDocument(path: path)]).load()
        #expect(result.snapshot == nil)
        #expect(
            result.diagnostics.map(\.description) == [
                path + #": item[0].response[0].code: expected the example's HTTP status (an integer 100-599), found "200""#,
                path + #": item[1].item[0].response[0].header: expected an array of {"key", "value"} headers, found 5"#,
                path + #": item[1].item[0].response[0].body: expected the body as text (a string), found {"not":"text"}"#,
                path + ": item[2]: expected a request or a folder (an object), found 7",
            ])
    }
}
