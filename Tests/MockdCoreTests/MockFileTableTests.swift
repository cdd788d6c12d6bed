import Testing
@testable import MockdCore

/// The snapshot's file table, alone: found by name, missing names, replacing, listing.
@Suite("Mock file table")
struct MockFileTableTests {
    private func file(_ name: String) -> MockFile {
        MockFile(name: name, relativePath: "dir/" + name,
                 response: PreparedResponse(id: 0, status: 200, contentType: "application/json", customHeaders: [], body: ResponseBody([UInt8]()), source: "file " + name))
    }

    @Test func aFileIsFoundByItsName_AndOnlyByIt() {
        var table = MockFileTable()
        table["mock_api_users_get.json"] = file("mock_api_users_get.json")
        #expect(table["mock_api_users_get.json"]?.relativePath == "dir/mock_api_users_get.json")
        #expect(table["mock_api_users_post.json"] == nil)
        #expect(table["mock_api_user_get.json"] == nil)
        #expect(table[""] == nil)
        #expect(table.count == 1)
    }

    @Test func manyNames_AllFound_NoneConfused() {
        var table = MockFileTable()
        table.reserveCapacity(10_000)
        for index in 1...10_000 { table["mock_items_\(index)_get.json"] = file("mock_items_\(index)_get.json") }
        #expect(table.count == 10_000)
        for index in [1, 17, 999, 5_000, 10_000] {
            #expect(table["mock_items_\(index)_get.json"]?.name == "mock_items_\(index)_get.json")
        }
        #expect(table["mock_items_0_get.json"] == nil)
        #expect(table["mock_items_10001_get.json"] == nil)
        #expect(Set(table.keys).count == 10_000)
        #expect(table.values.count == 10_000)
    }

    @Test func settingANameAgain_ReplacesIt_AndNilRemovesIt() {
        var table: MockFileTable = ["mock_a_get.json": file("mock_a_get.json")]
        table["mock_a_get.json"] = MockFile(name: "mock_a_get.json", relativePath: "other/mock_a_get.json", response: file("x").response)
        #expect(table["mock_a_get.json"]?.relativePath == "other/mock_a_get.json")
        #expect(table.count == 1)
        table["mock_a_get.json"] = nil
        #expect(table.isEmpty)
    }
}
