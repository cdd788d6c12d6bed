import Testing
@testable import MockdCore

/// The snapshot's file table, alone: found by name and by a request's method and path (which
/// must agree with `MockFileName.forRequest`), misses, replacing, non-ASCII names.
@Suite("Mock file table")
struct MockFileTableTests {
    private func file(_ name: String, at folder: String = "dir") -> MockFile {
        MockFile(
            name: name, relativePath: folder + "/" + name,
            response: PreparedResponse(
                id: 0, status: 200, contentType: "application/json", customHeaders: [],
                body: ResponseBody([UInt8]()), origin: .file(name)))
    }

    private func table(_ names: [String]) -> MockFileTable {
        var table = MockFileTable()
        for name in names { table.insert(file(name)) }
        return table
    }

    @Test func aFileIsFoundByItsName_AndOnlyByIt() {
        let table = table(["mock_api_users_get.json"])
        #expect(table["mock_api_users_get.json"]?.relativePath == "dir/mock_api_users_get.json")
        #expect(table["mock_api_users_post.json"] == nil)
        #expect(table["mock_api_user_get.json"] == nil)
        #expect(table[""] == nil)
        #expect(table.count == 1)
    }

    @Test func aRequestFindsTheFileItsNameSays() {
        let names = ["mock_api_users_get.json", "mock__get.json", "mock_a_b_post.json", "mock_v1_items_7_delete.json"]
        let table = table(names)
        let requests: [(method: String, path: String, name: String?)] = [
            ("GET", "/api/users", "mock_api_users_get.json"),
            ("GET", "/api/users/", "mock_api_users_get.json"),  // one trailing slash is dropped
            ("GET", "/", "mock__get.json"),
            ("POST", "/a/b", "mock_a_b_post.json"),
            ("POST", "/a_b", "mock_a_b_post.json"),  // the name cannot tell / from _
            ("DELETE", "/v1/items/7", "mock_v1_items_7_delete.json"),
            ("GET", "/api/user", nil),
            ("PUT", "/api/users", nil),
            ("GET", "/api/users//", nil),
            ("GET", "", nil),
        ]
        for request in requests {
            let found = table.file(method: request.method, path: request.path)?.name
            #expect(found == request.name, "\(request.method) \(request.path)")
            // The same answer as building the name.
            #expect(found == table[MockFileName.forRequest(method: request.method, path: request.path)]?.name)
        }
    }

    @Test func manyNames_AllFound_NoneConfused() {
        var table = MockFileTable()
        table.reserveCapacity(10_000)
        for index in 1...10_000 { table.insert(file("mock_items_\(index)_get.json")) }
        #expect(table.count == 10_000)
        for index in [1, 17, 999, 5_000, 10_000] {
            #expect(table["mock_items_\(index)_get.json"]?.name == "mock_items_\(index)_get.json")
            #expect(table.file(method: "GET", path: "/items/\(index)")?.name == "mock_items_\(index)_get.json")
        }
        #expect(table["mock_items_0_get.json"] == nil)
        #expect(table.file(method: "GET", path: "/items/10001") == nil)
        #expect(Set(table.keys).count == 10_000)
        #expect(table.values.count == 10_000)
    }

    @Test func growingWithoutAReservation_KeepsEveryName() {
        let table = table((1...300).map { "mock_n_\($0)_get.json" })
        #expect((1...300).allSatisfy { table.file(method: "GET", path: "/n/\($0)")?.name == "mock_n_\($0)_get.json" })
    }

    @Test func insertingANameAgain_ReplacesIt() {
        var table: MockFileTable = ["mock_a_get.json": file("mock_a_get.json")]
        table.insert(file("mock_a_get.json", at: "other"))
        #expect(table["mock_a_get.json"]?.relativePath == "other/mock_a_get.json")
        #expect(table.count == 1)
    }

    @Test func nonASCIINames_MatchCanonicallyEquivalentRequests() {
        let composed = "mock_caf\u{E9}_get.json"  // é as one scalar
        let table = table([composed, "mock_plain_get.json"])
        #expect(table.file(method: "GET", path: "/caf\u{E9}")?.name == composed)
        #expect(table.file(method: "GET", path: "/cafe\u{301}")?.name == composed)  // e + combining acute
        #expect(table["mock_cafe\u{301}_get.json"]?.name == composed)
        #expect(table.file(method: "GET", path: "/plain")?.name == "mock_plain_get.json")
        #expect(table.file(method: "GET", path: "/caf") == nil)
    }
}
