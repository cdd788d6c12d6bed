import Foundation
import MockdCore
import MockdDisk
import Testing
import TestSupport

/// `MemoryFiles` stands in for the disk in core tests, so it must load a tree exactly as the
/// disk does: the same tree is loaded from both and every fact of the result compared.
@Suite struct MemoryFilesTests {
    static let tree: [String: String] = [
        "MockData/mock_api_users_get.json": #"[{"id": 1}]"#,
        "MockData/users/mock_api_user_7_get.json": #"{"id": 7}"#,
        "MockData/scenarios/empty/mock_api_users_get.json": "[]",
        "MockData/mock_api_orders_post.201.json": #"{"id": 9}"#,
        "MockData/mock_api_feed_get.sse": "data: 1\n\ndata: 2\n\n",
        "MockData/mock_api_users_GET.json": "{}",
        "MockData/.hidden/mock_api_secret_get.json": "{}",
        "MockData/bodies/profile.json": #"{"name": "Ada"}"#,
        "MockData/notes.json": #"[{"id": 1, "text": "a"}]"#,
        "routes/a.json": #"""
        {"routes": [
          {"method": "GET", "path": "/api/profile", "response": {"file": "bodies/profile.json"}},
          {"resource": "/api/notes", "seed": "notes.json"},
          {"method": "GET", "path": "/api/missing", "response": {"file": "bodies/none.json"}}
        ]}
        """#,
    ]

    /// What a load says, as comparable text: files, routes, resources and every diagnostic,
    /// with the root's path taken out.
    static func facts(_ loader: MockDataLoader, root: String) -> [String] {
        let result = loader.load()
        var facts = result.diagnostics.map { "diagnostic " + $0.description.replacingOccurrences(of: root, with: "ROOT") }
        if let snapshot = result.snapshot {
            facts.append("files \(snapshot.fileCount), routes \(snapshot.routes.count)")
            facts += snapshot.resources.all.map { "resource \($0.path) \($0.seeds[""]?.count ?? -1)" }
        }
        return facts
    }

    @Test func aTreeInMemoryLoadsAsTheSameTreeOnDisk() throws {
        let onDisk = try withTemporaryFolder(Self.tree) { folder in
            Self.facts(
                MockDataLoader(files: DiskFiles(), root: folder.child("MockData"), routes: folder.child("routes")), root: folder.path)
        }
        var loader = MockDataLoader(files: DiskFiles(), root: "/memory-root/MockData", routes: "/memory-root/routes")
        loader.files = MemoryFiles(Dictionary(uniqueKeysWithValues: Self.tree.map { ("/memory-root/" + $0.key, $0.value) }))
        let inMemory = Self.facts(loader, root: "/memory-root")
        // The missing body file is an error, so there is no snapshot: diagnostics are compared.
        #expect(inMemory.contains { $0.contains("routes[2].response.file: no such file: ROOT/MockData/bodies/none.json") }, "\(inMemory)")
        #expect(inMemory.contains { $0.contains("mock_api_users_GET.json") }, "\(inMemory)")
        #expect(inMemory == onDisk)
    }

    @Test func withoutTheBrokenRouteBothServeTheSameSnapshot() throws {
        var tree = Self.tree
        tree["routes/a.json"] = tree["routes/a.json"]!.replacingOccurrences(of: "bodies/none.json", with: "bodies/profile.json")
        let onDisk = try withTemporaryFolder(tree) { folder in
            Self.facts(
                MockDataLoader(files: DiskFiles(), root: folder.child("MockData"), routes: folder.child("routes")), root: folder.path)
        }
        var loader = MockDataLoader(files: DiskFiles(), root: "/memory-root/MockData", routes: "/memory-root/routes")
        loader.files = MemoryFiles(Dictionary(uniqueKeysWithValues: tree.map { ("/memory-root/" + $0.key, $0.value) }))
        let inMemory = Self.facts(loader, root: "/memory-root")
        #expect(inMemory.contains("files 5, routes 2"), "\(inMemory)")
        #expect(inMemory.contains("resource /api/notes 1"), "\(inMemory)")
        #expect(inMemory == onDisk)
    }

    @Test func aMissingRootIsSaidAsOnDisk() {
        var loader = MockDataLoader(files: DiskFiles(), root: "/memory-root/MockData")
        loader.files = MemoryFiles(["/memory-root/other/mock_a_get.json": "{}"])
        #expect(
            loader.load().diagnostics.map(\.description) == [
                "/memory-root/MockData: the mock root folder does not exist (give it with --root DIR)"
            ])
        loader.files = MemoryFiles(["/memory-root/MockData": "{}"])
        #expect(
            loader.load().diagnostics.map(\.description) == [
                "/memory-root/MockData: the mock root is a file, not a folder (give the folder with --root DIR)"
            ])
    }
}
