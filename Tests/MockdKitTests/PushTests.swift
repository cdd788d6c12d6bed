import Foundation
import MockdKit
import Testing

/// `push(_:)` against a real mockd started with `--push-command`: a stand-in for `xcrun` that
/// records its arguments, since simctl exists on a Mac only.
@Suite("MockdClient pushes")
struct PushTests {
    /// A script that appends its arguments, one line per call, to `calls` beside it, and reads the payload.
    static func standIn() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("MockdKitPush-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("xcrun")
        try Data("#!/bin/sh\ncat > /dev/null\necho \"$*\" >> \"\(folder.path)/calls\"\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return script
    }

    @Test("push sends a payload file to the session's simulator, and the journal has it")
    func pushByName() async throws {
        let script = try Self.standIn()
        defer { try? FileManager.default.removeItem(at: script.deletingLastPathComponent()) }
        try await withMockd(arguments: ["--push-command", script.path]) { client, _ in
            let session = try await client.newSession(device: "UDID-1", bundleID: "com.example.mockapp")
            #expect(session.device == "UDID-1")
            let sent = try await client.push("new-message", session: session.id)
            #expect(sent.result == "sent")
            #expect(sent.exitStatus == 0)
            #expect(sent.device == "UDID-1")
            let pushes = try await client.waitForRequests(MockdRequestFilter(session: session.id, kind: .push))
            #expect(pushes.first?.kind == .push)
            #expect(pushes.first?.status == 201)
            let given = try await client.push(payload: Data(#"{"aps": {"badge": 1}}"#.utf8), bundleID: "com.example.mockapp")
            #expect(given.name == nil)
            #expect(given.device == "booted")
            let calls = try String(contentsOf: script.deletingLastPathComponent().appendingPathComponent("calls"), encoding: .utf8)
            #expect(calls == "simctl push UDID-1 com.example.mockapp -\nsimctl push booted com.example.mockapp -\n")
            let unknown = await httpError { try await client.push("no-such-payload") }
            #expect(unknown?.status == 404)
            try await client.deleteSession(session.id)
        }
    }
}
