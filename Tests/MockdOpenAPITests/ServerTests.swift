import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Logging
import MockdCore
import MockdDisk
import MockdHTTP
import MockdOpenAPI
import MockdServe
import Testing
import TestSupport

/// A real mockd (libmicrohttpd on 127.0.0.1, port 0) serving each document in Tests/Fixtures/openapi
/// (the OpenAPI Initiative's examples, copied from ../shared/openapi), asked with URLSession.
@Suite struct ServerTests {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data
        func header(_ name: String) -> String? { headers[name.lowercased()] }
        func json() throws -> Any { try JSONSerialization.jsonObject(with: body) }
    }

    static func withServer<T>(
        _ document: String, files: [String: String] = [:],
        _ body: (@Sendable (String, String, [String: String], Data?) async throws -> Reply) async throws -> T
    ) async throws -> T {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(files)
        let loaded = MockDataLoader(
            files: DiskFiles(), root: folder.path, operationSources: [OpenAPIDocument(path: SharedDocuments.path(document))]
        ).load()
        let snapshot = try #require(loaded.snapshot, "did not load: \(loaded.diagnostics)")
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        return try await TestSupport.withServer(snapshot: snapshot, logger: Self.silent) { server in
            let port = server.port
            return try await body { method, target, headers, data in
                var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(target)")!)
                request.httpMethod = method
                request.httpBody = data
                for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
                let (bytes, response) = try await session.data(for: request)
                let http = try #require(response as? HTTPURLResponse)
                var fields: [String: String] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
                }
                return Reply(status: http.statusCode, headers: fields, body: bytes)
            }
        }
    }

    static let silent = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func petstore() async throws {
        try await Self.withServer("petstore.yaml") { send in
            let list = try await send("GET", "/v1/pets", [:], nil)
            #expect(list.status == 200)
            #expect(list.header("Content-Type") == "application/json")
            #expect(list.header("X-Mockd-Source") == "openapi petstore.yaml GET /pets 200 generated")
            let pets = try #require(try list.json() as? [[String: Any]])
            #expect(pets.first?["name"] as? String == "string")
            #expect(try await send("GET", "/v1/pets/42", [:], nil).status == 200)
            let invalid = try await send("GET", "/v1/pets?limit=1000", [:], nil)
            #expect(invalid.status == 400)  // `default` documents errors: answered as 400
            #expect(invalid.header("X-Mockd-Source")?.contains("query.limit: expected at most 100, found 1000") == true)
            let notAllowed = try await send("DELETE", "/v1/pets/1", [:], nil)
            #expect(notAllowed.status == 405)
            #expect(notAllowed.header("Allow") == "GET, HEAD")
            let created = try await send("POST", "/v1/pets", ["Content-Type": "application/json"], Data(#"{"id": 1, "name": "Tom"}"#.utf8))
            #expect(created.status == 201)
            #expect(created.body.isEmpty)
        }
    }

    /// A body larger than the journal keeps is validated whole: an operation reads bodies, so
    /// the server holds them (a cut one would be invalid JSON, refused with 400).
    @Test func aBodyLongerThanTheJournalKeepsIsValidatedWhole() async throws {
        try await Self.withServer("petstore.yaml") { send in
            let name = String(repeating: "x", count: 100_000)
            let created = try await send(
                "POST", "/v1/pets", ["Content-Type": "application/json"], Data(#"{"id": 1, "name": "\#(name)"}"#.utf8))
            #expect(created.status == 201, "\(created.header("X-Mockd-Source") ?? "")")
        }
    }

    @Test func petstoreExpandedUnderItsServerPath() async throws {
        try await Self.withServer("petstore-expanded.yaml") { send in
            let list = try await send("GET", "/v2/pets?tags=a&tags=b&limit=3", [:], nil)
            #expect(list.status == 200, "\(String(decoding: list.body, as: UTF8.self))")
            let pet = try #require((try list.json() as? [[String: Any]])?.first)
            #expect(pet["id"] as? Int == 0)  // allOf merged: NewPet's name and tag, then the id
            #expect(pet["name"] as? String == "string")
            let missingName = try await send("POST", "/v2/pets", ["Content-Type": "application/json"], Data(#"{"tag": "x"}"#.utf8))
            #expect(missingName.status == 400)
            #expect(missingName.header("X-Mockd-Source")?.contains("body.name: required, missing") == true)
            #expect(try await send("DELETE", "/v2/pets/5", [:], nil).status == 204)
            #expect(try await send("DELETE", "/v2/pets/five", [:], nil).status == 400)
        }
    }

    @Test func swagger2UnderItsBasePath() async throws {
        try await Self.withServer("swagger2-petstore.yaml") { send in
            let reply = try await send("GET", "/v1/pets/1", [:], nil)
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json")
            let prefer = try await send("GET", "/v1/pets", ["Prefer": "code=500"], nil)
            #expect(prefer.status == 500)
            #expect(prefer.header("Preference-Applied") == "code=500")
        }
    }

    @Test func webhookOnlyDocumentServesNothingAndSaysSo() async throws {
        try await Self.withServer("webhook-example.yaml") { send in
            let miss = try await send("POST", "/newPet", [:], nil)
            #expect(miss.status == 404)
        }
    }

    @Test func reloadReadsTheDocumentAndTheFilesItNamesAndABrokenEditKeepsTheLastGood() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let document =
            "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /n:\n    get:\n      responses:\n        '200': {$ref: 'answer.yaml'}\n"
        try folder.write(["api.yaml": document, "answer.yaml": "description: ok\ncontent: {application/json: {example: {n: 1}}}\n"])
        let loader = MockDataLoader(
            files: DiskFiles(), root: folder.child("MockData"), operationSources: [OpenAPIDocument(path: folder.child("api.yaml"))])
        let snapshot = try #require(loader.load().snapshot)
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let reloader = Reloader(logger: Self.silent) { loader.load() }
        try await TestSupport.withServer(snapshot: snapshot, logger: Self.silent, reloads: reloader, attach: reloader.serve) { server in
            func body() async throws -> String {
                let (data, _) = try await session.data(from: URL(string: "http://127.0.0.1:\(server.port)/n")!)
                return String(decoding: data, as: UTF8.self)
            }
            #expect(try await body().contains("\"n\": 1"))
            try folder.write("answer.yaml", "description: ok\ncontent: {application/json: {example: {n: 2}}}\n")
            #expect(reloader.reload(trigger: "test").ok)
            #expect(try await body().contains("\"n\": 2"))
            try folder.write("answer.yaml", "description: ok\ncontent: [\n")
            let failed = reloader.reload(trigger: "test")
            #expect(!failed.ok)
            #expect(failed.errors.first?.contains("answer.yaml") == true)
            #expect(try await body().contains("\"n\": 2"))
        }
    }

    @Test func aFileOverridesAnOperation() async throws {
        try await Self.withServer("petstore.yaml", files: ["mock_v1_pets_get.json": #"[{"id": 7, "name": "from a file"}]"#]) { send in
            let reply = try await send("GET", "/v1/pets", [:], nil)
            #expect(reply.header("X-Mockd-Source") == "file mock_v1_pets_get.json")
            #expect(try await send("GET", "/v1/pets/3", [:], nil).header("X-Mockd-Source")?.hasPrefix("openapi") == true)
            let routes = try await send("GET", "/__mockd/routes", [:], nil)
            let table = try #require(try routes.json() as? [String: Any])
            #expect((table["operations"] as? [Any])?.count == 3)
        }
    }
}
