import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--state-dir`: the mockd binary keeps resources' global state across a SIGTERM and a new
/// start; sessions' copies are never saved; a reset, a changed seed and a bad file each give
/// the seed back.
@Suite("mockd --state-dir")
struct StateDirTests {
    static let path = "/api/v1/sleep/entries"
    static let seedFile = "MockData/sleep/mock_api_v1_sleep_entries_get.json"
    static let files = [
        seedFile: #"[{"id": 1, "user_id": 3}, {"id": 2, "user_id": 5}]"#,
        "routes/sleep.json": #"{"routes": [{"resource": "/api/v1/sleep/entries", "seed": "sleep/mock_api_v1_sleep_entries_get.json"}]}"#,
    ]

    static func arguments(_ folder: TemporaryFolder) -> [String] {
        [
            "--root", folder.child("MockData"), "--routes", folder.child("routes"), "--port", "0", "--no-watch", "--state-dir",
            folder.child("state"),
        ]
    }

    /// Runs mockd once: `body`, then SIGTERM, and the exit status must be 0. Returns its stderr.
    @discardableResult
    static func run(_ folder: TemporaryFolder, _ body: (Int) async throws -> Void) async throws -> String {
        try await CLITests.withMockd(arguments(folder), in: folder) { mockd, startup async throws in
            try await body(startup.port)
            let status = try await blocking { () -> Int32? in
                mockd.send(SIGTERM)
                return mockd.waitForExit(timeout: eventDeadline)
            }
            #expect(status == 0, "stderr: \(mockd.stderrText())")
            return mockd.stderrText()
        }
    }

    static func send(_ port: Int, _ method: String, _ target: String, session: String? = nil, _ body: String = "") async throws
        -> RawResponse
    {
        let headers = session.map { [("X-Mock-Session", $0)] } ?? []
        return try await blocking { try RawConnection.exchange(port: port, method, target, headers: headers, body: Array(body.utf8)) }
    }

    static func ids(_ port: Int, session: String? = nil) async throws -> [Int] {
        let response = try await send(port, "GET", path, session: session)
        #expect(response.status == 200, "\(response)")
        let items = try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]]
        return (items ?? []).compactMap { $0["id"] as? Int }
    }

    static func stateFiles(_ folder: TemporaryFolder) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.child("state"))) ?? []).sorted()
    }

    @Test func aPostSurvivesSIGTERMAndANewStart_ASessionsDoesNot() async throws {
        try await withTemporaryFolder(Self.files) { folder in
            try await Self.run(folder) { port async throws in
                let mine = try await Self.send(port, "POST", Self.path, session: "sim-1", #"{"user_id": 9}"#)
                #expect(mine.status == 201)
                let created = try await Self.send(port, "POST", Self.path, #"{"user_id": 4}"#)
                #expect(created.status == 201)
                #expect(created.header("Location") == Self.path + "/3")
                let removed = try await Self.send(port, "DELETE", Self.path + "/3")
                #expect(removed.status == 204)
                // The next id after a deleted one is new: the saved state carries it on.
                let again = try await Self.send(port, "POST", Self.path, #"{"user_id": 6}"#)
                #expect(again.header("Location") == Self.path + "/4")
            }
            // One file, for the global copy: nothing the session wrote.
            let files = Self.stateFiles(folder)
            #expect(files.count == 1, "\(files)")
            let saved = try String(contentsOfFile: folder.child("state/" + (files.first ?? "")), encoding: .utf8)
            #expect(saved.contains(#"{"id":4,"user_id":6}"#))
            #expect(!saved.contains(#""user_id":9"#))

            let log = try await Self.run(folder) { port async throws in
                #expect(try await Self.ids(port) == [1, 2, 4])
                let item = try await Self.send(port, "GET", Self.path + "/4")
                #expect(item.text == #"{"id":4,"user_id":6}"#)
                // The session starts from the seed again: its copy was never saved.
                #expect(try await Self.ids(port, session: "sim-1") == [1, 2])
                let next = try await Self.send(port, "POST", Self.path, "{}")
                #expect(next.header("Location") == Self.path + "/5")
            }
            let restored = log.split(separator: "\n").filter { $0.contains("resource state restored") }
            #expect(restored.count == 1, "\(log)")
            #expect(
                restored.first.map {
                    $0.contains("mockd.file=\(folder.child("state"))/") && $0.contains("mockd.items=3")
                        && $0.contains("mockd.resource=\(Self.path)")
                } == true, "\(log)")
        }
    }

    @Test func sessionWritesAloneWriteNothing() async throws {
        try await withTemporaryFolder(Self.files) { folder in
            try await Self.run(folder) { port async throws in
                let created = try await Self.send(port, "POST", Self.path, session: "sim-2", #"{"user_id": 9}"#)
                #expect(created.status == 201)
                #expect(try await Self.ids(port, session: "sim-2") == [1, 2, 3])
            }
            #expect(Self.stateFiles(folder) == [])
        }
    }

    @Test func aResetRemovesTheSavedState() async throws {
        try await withTemporaryFolder(Self.files) { folder in
            try await Self.run(folder) { port async throws in
                _ = try await Self.send(port, "POST", Self.path, #"{"user_id": 4}"#)
            }
            #expect(Self.stateFiles(folder).count == 1)
            try await Self.run(folder) { port async throws in
                #expect(try await Self.ids(port) == [1, 2, 3])
                let reset = try await Self.send(port, "POST", "/__mockd/reset")
                #expect(reset.status == 200, "\(reset)")
                #expect(try await Self.ids(port) == [1, 2])
            }
            #expect(Self.stateFiles(folder) == [])
            try await Self.run(folder) { port async throws in
                #expect(try await Self.ids(port) == [1, 2])
            }
        }
    }

    @Test func aCorruptStateFileIsNamedAndTheSeedServed() async throws {
        try await withTemporaryFolder(Self.files) { folder in
            try await Self.run(folder) { port async throws in
                _ = try await Self.send(port, "POST", Self.path, #"{"user_id": 4}"#)
            }
            let file = folder.child("state/" + (Self.stateFiles(folder).first ?? "missing"))
            try FileManager.default.copyItem(atPath: file, toPath: file + ".bak")
            try #"{"mockd": "resource state","#.write(toFile: file, atomically: true, encoding: .utf8)
            let log = try await Self.run(folder) { port async throws in
                #expect(try await Self.ids(port) == [1, 2])
            }
            let restored =
                "warning resource state not restored mockd.file=\(file) mockd.location=line 1, column 28 mockd.problem=invalid JSON:"
            #expect(log.contains(restored), "\(log)")
            #expect(log.contains("the resource starts from its seed"), "\(log)")

            // Valid JSON, but not a state mockd can serve: the place inside it is named.
            let saved = try String(contentsOfFile: file + ".bak", encoding: .utf8)
            try saved.replacingOccurrences(of: #"{"id":3,"#, with: #"{"id":2,"#).write(toFile: file, atomically: true, encoding: .utf8)
            let second = try await Self.run(folder) { port async throws in
                #expect(try await Self.ids(port) == [1, 2])
            }
            let place =
                "warning resource state not restored mockd.file=\(file) mockd.location=items[2].id "
                + "mockd.problem=2 is also the id of [1]; ids must be unique; the resource starts from its seed"
            #expect(second.contains(place), "\(second)")
        }
    }

    /// Its files would be served as mocks, and each write would reload mockd.
    @Test func aStateDirInsideTheRootIsRefused_AndNotMade() async throws {
        try await withTemporaryFolder(Self.files) { folder in
            let arguments = [
                "--root", folder.child("MockData"), "--routes", folder.child("routes"), "--port", "0", "--state-dir",
                folder.child("MockData/state"),
            ]
            let result = try await runProcess(CLITests.executable, arguments, currentDirectory: folder.path)
            #expect(result.status != 0)
            #expect(
                result.stderr.contains("--state-dir \(folder.child("MockData/state")) is inside \(folder.child("MockData"))"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: folder.child("MockData/state")))
        }
    }

    @Test func aChangedSeedWinsOverTheSavedState() async throws {
        try await withTemporaryFolder(Self.files) { folder in
            try await Self.run(folder) { port async throws in
                _ = try await Self.send(port, "POST", Self.path, #"{"user_id": 4}"#)
            }
            try folder.write(Self.seedFile, #"[{"id": 7, "user_id": 3}]"#)
            let log = try await Self.run(folder) { port async throws in
                #expect(try await Self.ids(port) == [7])
            }
            #expect(log.contains("resource state removed: its seed changed since it was saved; the seed is served mockd.file="), "\(log)")
            #expect(Self.stateFiles(folder) == [])
        }
    }
}
