import Foundation
import MockdCore
import MockdDisk
@testable import MockdProxy
import Testing
import TestSupport

/// Where the recorder looks for existing mocks (the served snapshot), and where it writes from.
@Suite(.timeLimit(.minutes(1)))
struct RecorderSnapshotTests {
    @Test func existingMocksAreFoundInTheServedSnapshotNotByWalkingTheDisk() throws {
        let space = try RecorderTests.Workspace()
        defer { space.folder.remove() }
        try space.folder.write("root/users/mock_api_users_get.json", "[\"served\"]\n")
        let served = try #require(MockDataLoader(files: DiskFiles(), root: space.root).load().snapshot)
        // Gone from the disk, still served: the served mock is the one a recording would shadow.
        try FileManager.default.removeItem(atPath: space.root + "/users/mock_api_users_get.json")
        let recorder = Recorder(root: space.root, routesDirectory: space.routes, overwrite: false, logger: testLogger)
        recorder.findMocks(in: { served })
        #expect(
            recorder.record(MockRequest(method: "GET", path: "/api/users"), RecorderTests.json(#"["new"]"#))
                == .keptExisting(space.root + "/users/mock_api_users_get.json"))
        #expect(space.folder.files().isEmpty)

        // Without a snapshot only the root itself is looked at: a file there is still kept.
        try space.folder.write("root/mock_api_items_get.json", "[\"mine\"]\n")
        let bare = Recorder(root: space.root, routesDirectory: space.routes, overwrite: false, logger: testLogger)
        #expect(
            bare.record(MockRequest(method: "GET", path: "/api/items"), RecorderTests.json(#"["new"]"#))
                == .keptExisting(space.root + "/mock_api_items_get.json"))
        #expect(space.folder.read("root/mock_api_items_get.json") == "[\"mine\"]\n")
    }

    @Test func recordingOffThePoolWritesWhatRecordWrites() async throws {
        let space = try RecorderTests.Workspace()
        defer { space.folder.remove() }
        let recorder = space.recorder()
        #expect(
            await recorder.recordOffThePool(MockRequest(method: "GET", path: "/a"), RecorderTests.json(#"{"a":1}"#))
                == .wroteMock(space.root + "/mock_a_get.json"))
        #expect(await recorder.recordOffThePool(MockRequest(method: "GET", path: "/a"), RecorderTests.json("{}")) == .duplicate(2))
        #expect(space.folder.read("root/mock_a_get.json") == #"{"a":1}"#)
    }
}
