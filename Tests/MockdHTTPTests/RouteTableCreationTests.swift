import Foundation
import Testing
import TestSupport

/// `POST /__mockd/route-tables` on a real mockd: a new table in the routes folder, checked as a
/// reload checks it (and against `--openapi`) before it is written, never over a file, served at once.
@Suite struct RouteTableCreationTests {
    static func create(port: Int, _ json: String) async throws -> RawResponse {
        try await blocking {
            try RawConnection.exchange(
                port: port, "POST", "/__mockd/route-tables", headers: [("Content-Type", "application/json")], body: Array(json.utf8))
        }
    }

    static func object(_ response: RawResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any], "\(response.text)")
    }

    static func withMockd(_ extra: [String] = [], _ body: (TemporaryFolder, Int) async throws -> Void) async throws {
        try await withTemporaryFolder([
            "MockData/README.txt": "mocks", "routes/existing.json": #"{"routes": []}"#, "api.yaml": ContractMockTests.document,
        ]) { folder async throws in
            try await FirstHourTests.withMockd(["--root", "MockData", "--port", "0"] + extra, in: folder.path) { _, startup async throws in
                try await body(folder, startup.port)
            }
        }
    }

    static let order = #"{"method": "POST", "path": "/api/orders", "response": {"status": 201, "json": {"id": 1}}}"#

    @Test func aNewTableIsWrittenAndServedAtOnce() async throws {
        try await Self.withMockd { folder, port in
            let created = try await Self.create(port: port, #"{"table": "orders.json", "routes": [\#(Self.order)]}"#)
            #expect(created.status == 201, "\(created.text)")
            #expect(try Self.object(created)["file"] as? String == "orders.json")
            let written = try String(contentsOfFile: folder.child("routes/orders.json"), encoding: .utf8)
            let table = try #require(try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: Any])
            #expect((table["routes"] as? [[String: Any]])?.first?["path"] as? String == "/api/orders")
            let served = try await blocking { try RawConnection.exchange(port: port, "POST", "/api/orders") }
            #expect(served.status == 201)
            #expect(served.header("X-Mockd-Source")?.hasPrefix("route ") == true, "\(served.header("X-Mockd-Source") ?? "")")

            // The same name again: refused, the file as it was.
            let again = try await Self.create(
                port: port, #"{"table": "orders.json", "routes": [{"method": "GET", "path": "/x", "response": {"text": "x"}}]}"#)
            #expect(again.status == 409, "\(again.text)")
            #expect(try String(contentsOfFile: folder.child("routes/orders.json"), encoding: .utf8) == written)
        }
    }

    @Test(arguments: [
        #"{"table": "bad.json", "routes": [{"method": "GET", "path": "api/x", "response": {"text": "x"}}]}"#,
        #"{"table": "bad.json", "routes": [{"method": "GET", "path": "/x"}]}"#,
        #"{"table": "bad.json", "routes": []}"#,
        #"{"table": "../bad.json", "routes": [{"method": "GET", "path": "/x", "response": {"text": "x"}}]}"#,
        #"{"table": "sub/bad.json", "routes": [{"method": "GET", "path": "/x", "response": {"text": "x"}}]}"#,
        #"{"table": "bad.txt", "routes": [{"method": "GET", "path": "/x", "response": {"text": "x"}}]}"#,
        #"{"tabel": "bad.json", "routes": [{"method": "GET", "path": "/x", "response": {"text": "x"}}]}"#,
    ])
    func aBadTableIs400AndWritesNothing(body: String) async throws {
        try await Self.withMockd { folder, port in
            let before = try DashboardHTTPTests.filesUnder(folder.path)
            let refused = try await Self.create(port: port, body)
            #expect(refused.status == 400, "\(refused.text)")
            #expect((try Self.object(refused)["error"] as? String)?.isEmpty == false)
            #expect(try DashboardHTTPTests.filesUnder(folder.path) == before)
        }
    }

    @Test func everyErrorOfTheTableIsListed() async throws {
        try await Self.withMockd { _, port in
            let refused = try await Self.create(
                port: port,
                #"{"table": "bad.json", "routes": [{"method": "GET", "path": "/x"}, {"method": "GET", "path": "/y", "response": {"status": "ok"}}]}"#
            )
            let errors = try Self.object(refused)["errors"] as? [String] ?? []
            #expect(errors.count == 2, "\(errors)")
            #expect(errors.first?.hasPrefix("routes[0]: missing \"response\"") == true, "\(errors)")
            #expect(errors.last?.hasPrefix("routes[1].response.status:") == true, "\(errors)")
        }
    }

    @Test func anOffContractAnswerIs422AndWritesNothing() async throws {
        try await Self.withMockd(["--openapi", "api.yaml"]) { folder, port in
            let refused = try await Self.create(
                port: port,
                #"{"table": "users.json", "routes": [{"method": "GET", "path": "/api/users/:id", "response": {"json": {"id": "7"}}}]}"#)
            #expect(refused.status == 422, "\(refused.text)")
            #expect(
                try Self.object(refused)["violations"] as? [String] == [
                    "routes[0].response: breaks openapi api.yaml GET /api/users/{id} 200: body.name: required, missing",
                    #"routes[0].response: breaks openapi api.yaml GET /api/users/{id} 200: body.id: expected integer, found "7""#,
                ])
            #expect(!FileManager.default.fileExists(atPath: folder.child("routes/users.json")))
            let created = try await Self.create(
                port: port,
                #"{"table": "users.json", "routes": [{"method": "GET", "path": "/api/users/:id", "response": {"json": {"id": 7, "name": "Ada"}}}]}"#
            )
            #expect(created.status == 201, "\(created.text)")
            #expect(try await FirstHourTests.send(port: port, "/api/users/3").text.contains("Ada"))
        }
    }

    @Test func withoutARoutesFolderIs409() async throws {
        try await withTemporaryFolder(["MockData/README.txt": "mocks"]) { folder async throws in
            try await FirstHourTests.withMockd(["--root", "MockData", "--no-routes", "--port", "0"], in: folder.path) {
                _, startup async throws in
                let refused = try await Self.create(port: startup.port, #"{"table": "a.json", "routes": [\#(Self.order)]}"#)
                #expect(refused.status == 409, "\(refused.text)")
                #expect((try Self.object(refused)["error"] as? String)?.contains("--routes") == true)
            }
        }
    }
}
