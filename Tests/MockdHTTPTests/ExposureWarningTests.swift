import Foundation
import Testing
import TestSupport

/// `mockd serve` on a non-loopback address without `--admin-token` says once, at start, that
/// the admin API and the journal are open to the network, and how to close them.
@Suite("Exposure warning")
struct ExposureWarningTests {
    static func stderr(_ arguments: [String]) async throws -> String {
        try await withTemporaryFolder(Fixture.standard) { folder in
            let child = try ChildProcess(
                executable: CLITests.executable, arguments: ["--root", folder.path, "--port", "0", "--no-watch"] + arguments,
                currentDirectory: folder.path, stderrPath: folder.child("stderr"))
            defer { child.stop() }
            // The warning is written (warnings are not buffered) before the startup line.
            _ = try await blocking { try child.readLine() }
            return child.stderrText()
        }
    }

    @Test func nonLoopbackWithoutToken_WarnsOnce() async throws {
        let text = try await Self.stderr(["--host", "0.0.0.0"])
        let lines = text.split(separator: "\n").filter { $0.contains("--admin-token") }
        #expect(lines.count == 1, "\(text)")
        #expect(lines.first?.contains("redacted") == true && lines.first?.contains("--no-admin") == true, "\(text)")
    }

    @Test func loopbackOrToken_DoesNotWarn() async throws {
        let loopback = try await Self.stderr(["--host", "127.0.0.1"])
        #expect(!loopback.contains("--admin-token"), "\(loopback)")
        let token = try await Self.stderr(["--host", "0.0.0.0", "--admin-token", "t"])
        #expect(!token.contains("--admin-token"), "\(token)")
    }
}
