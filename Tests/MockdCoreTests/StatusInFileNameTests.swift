import MockdCore
import Testing

/// `mock_<path>_<method>.<status>.json`: an error dataset made of files.
struct StatusInFileNameTests {
    @Test(arguments: [
        ("mock_api_users_get.500.json", "mock_api_users_get.json", 500),
        ("mock_api_users_get.404.json", "mock_api_users_get.json", 404),
        ("mock_api_v1.2_report_get.201.json", "mock_api_v1.2_report_get.json", 201),
    ])
    func aStatusIsSplitOff(file: String, name: String, status: Int) throws {
        let split = try #require(MockFileName.splitStatus(file))
        #expect(split.name == name)
        #expect(split.status == status)
    }

    @Test(arguments: [
        "mock_api_users_get.json", "mock_api_users_get.50.json", "mock_api_users_get.999.json",
        "mock_api_users_get.100.json", "mock_api_users_get.5x0.json", "users.500.json",
    ])
    func otherNamesCarryNoStatus(file: String) {
        #expect(MockFileName.splitStatus(file) == nil)
    }

    @Test func servedWithItsStatusInScenarioFoldersToo() throws {
        try withSnapshot([
            "mock_api_users_get.json": #"[{"id": 1}]"#,
            "scenarios/error/mock_api_users_get.500.json": #"{"error": "boom"}"#,
            "mock_api_orders_post.201.json": #"{"id": 7}"#,
        ]) { snapshot, _ in
            let resolver = Resolver(snapshot: snapshot, state: RuntimeState())
            let plain = resolver.resolve(.make(path: "/api/users"))
            #expect(plain.status == 200)
            let error = resolver.resolve(.make(path: "/api/users", scenario: "error"))
            #expect(error.status == 500)
            #expect(error.preparedBody == Array(#"{"error": "boom"}"#.utf8))
            #expect(error.source == "file scenarios/error/mock_api_users_get.500.json")
            #expect(snapshot.scenarios == ["error"])
            let created = resolver.resolve(.make(method: "POST", path: "/api/orders"))
            #expect(created.status == 201)
        }
    }

    @Test func twoFilesForOneRequestAreAnError() throws {
        withMemoryFolder(["mock_api_users_get.json": "[]", "more/mock_api_users_get.500.json": "{}"]) { folder in
            let loaded = MockDataLoader(files: folder.files, root: folder.path).load()
            #expect(loaded.snapshot == nil)
            #expect(
                loaded.diagnostics.map(\.description) == [
                    "\(folder.path)/more/mock_api_users_get.500.json: answers the same request as \(folder.path)/mock_api_users_get.json (a status in the name changes only the status); one file per request, remove one"
                ])
        }
    }

    @Test func aStatusOutOfRangeIsStillReportedAsNotServed() throws {
        withMemoryFolder(["mock_api_users_get.999.json": "{}"]) { folder in
            let loaded = MockDataLoader(files: folder.files, root: folder.path).load()
            #expect(loaded.diagnostics.count == 1)
            #expect(loaded.diagnostics.first?.description.contains("not served") == true)
        }
    }
}
