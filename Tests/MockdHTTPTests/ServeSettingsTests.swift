import Foundation
import Testing
import TestSupport

/// `mockd serve` reads its options once, in the groups that declare them, and runs with what they say.
@Suite("Serve settings")
struct ServeSettingsTests {
    @Test func theOptionsGivenAreWhatTheRunUses() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            let arguments = ["--root", folder.path, "--port", "0", "--journal-size", "7", "--scenario", "empty"]
            try await CLITests.withMockd(arguments, in: folder) { _, startup in
                #expect(startup.port > 0)
                #expect(startup.line.contains("scenario empty)"), "\(startup.line)")
                for _ in 0..<8 { #expect(try await CLITests.get(port: startup.port, "/api/users").status == 200) }
                let journal = try await CLITests.get(port: startup.port, "/__mockd/requests")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(journal.body)) as? [String: Any])
                #expect(RequestWaitTests.entries(object).count == 7, "\(journal.text)")
            }
        }
    }

    @Test(arguments: [
        (["--port", "70000"], "--port 70000: expected 0-65535"),
        // `=`: a separate `-1` would be read as an option, and the value as missing.
        (["--journal-size=-1"], "--journal-size -1: expected 0 or more"),
    ])
    func aBadValueIsRefusedBeforeAnythingRuns(_ option: [String], _ message: String) async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            let result = try await runProcess(CLITests.executable, ["--root", folder.path] + option, currentDirectory: folder.path)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains(message), "\(result)")
            #expect(!result.stdout.contains("listening"), "\(result)")
        }
    }
}
