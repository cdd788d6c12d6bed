import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `mockd serve --background --pid-file F` and `mockd stop --pid-file F`, with the real binary,
/// as an Xcode scheme's pre- and post-action run them.
@Suite("mockd serve --background and stop")
struct BackgroundCLITests {
    /// The pid `file` names, or nil.
    static func pid(in file: String) -> Int32? {
        (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Runs `body` with the pid file's path, then SIGKILLs the mockd it still names (a pid file
    /// is left only when `mockd stop` did not end it): the background mockd is no child of the
    /// test, so nothing else would.
    static func withPidFile(in folder: TemporaryFolder, _ body: (String) async throws -> Void) async throws {
        let file = folder.child("mockd.pid")
        defer { if let pid = pid(in: file) { kill(pid, SIGKILL) } }
        try await body(file)
    }

    @Test func background_ReturnsOnceHealthy_RefusesASecondStart_StopEndsIt() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            try await Self.withPidFile(in: folder) { pidFile in
                // The port is free when chosen, but a server of a test running alongside may take
                // it before this mockd binds it: then another is chosen (mockd says so and exits 1).
                var port = try CLITests.ReservedPort().port
                var arguments = ["serve", "--background", "--pid-file", pidFile, "--root", folder.path, "--port", String(port)]
                var started = try await runProcess(CLITests.executable, arguments, currentDirectory: folder.path)
                for _ in 0..<3 where started.status == 1 && started.stderr.contains("something already answers") {
                    port = try CLITests.ReservedPort().port
                    arguments = ["serve", "--background", "--pid-file", pidFile, "--root", folder.path, "--port", String(port)]
                    started = try await runProcess(CLITests.executable, arguments, currentDirectory: folder.path)
                }
                #expect(started.status == 0, "\(started)")
                let pid = try #require(Self.pid(in: pidFile), "no pid file: \(started)")
                #expect(started.stdout.contains("mockd \(pid) serves on http://127.0.0.1:\(port)"), "\(started)")
                // Serving when the command returns: no wait.
                let response = try await CLITests.get(port: port, "/api/users")
                #expect(response.status == 200)
                #expect(response.body == Fixture.body("mock_api_users_get.json"))
                // Its output goes to the log file: the startup line.
                let log = try String(contentsOfFile: pidFile + ".log", encoding: .utf8)
                #expect(log.contains("mockd listening on http://127.0.0.1:\(port)"), "\(log)")

                // The pid file names a running mockd: a second start is refused and leaves it alone.
                let again = try await runProcess(CLITests.executable, arguments, currentDirectory: folder.path)
                #expect(again.status == 1, "\(again)")
                #expect(again.stderr.contains("\(pidFile) names mockd \(pid), which is still running"), "\(again)")
                #expect(Self.pid(in: pidFile) == pid)

                let stopped = try await runProcess(CLITests.executable, ["stop", "--pid-file", pidFile], currentDirectory: folder.path)
                #expect(stopped.status == 0, "\(stopped)")
                #expect(stopped.stdout.contains("mockd \(pid) stopped"), "\(stopped)")
                #expect(!FileManager.default.fileExists(atPath: pidFile))
                // It has exited when stop returns: its port no longer takes connections.
                #expect(throws: (any Error).self) { _ = try RawConnection(port: port) }
            }
        }
    }

    @Test func background_AMockdThatCannotStartReportsWhyAndWritesNoPidFile() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            try await Self.withPidFile(in: folder) { pidFile in
                let port = try CLITests.ReservedPort().port
                let result = try await runProcess(
                    CLITests.executable,
                    [
                        "--background", "--pid-file", pidFile, "--root", folder.child("missing"),
                        "--port", String(port),
                    ], currentDirectory: folder.path)
                #expect(result.status == 1, "\(result)")
                #expect(result.stderr.contains("mockd exited with status 1 before it answered its health check"), "\(result)")
                // The log's end says why.
                #expect(result.stderr.contains("missing"), "\(result)")
                #expect(!FileManager.default.fileExists(atPath: pidFile))
            }
        }
    }

    @Test func background_NeedsAPidFileAndAFixedPort() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            let noFile = try await runProcess(
                CLITests.executable, ["--background", "--root", folder.path, "--port", "8080"], currentDirectory: folder.path)
            #expect(noFile.status == 64, "\(noFile)")
            #expect(noFile.stderr.contains("--background needs --pid-file FILE"), "\(noFile)")
            let anyPort = try await runProcess(
                CLITests.executable, ["--background", "--pid-file", "m.pid", "--root", folder.path, "--port", "0"],
                currentDirectory: folder.path)
            #expect(anyPort.status == 64, "\(anyPort)")
            #expect(anyPort.stderr.contains("--background needs a port other than 0"), "\(anyPort)")
        }
    }

    @Test func stop_SignalsNothingButAMockd() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            let pidFile = folder.child("other.pid")
            let missing = try await runProcess(CLITests.executable, ["stop", "--pid-file", pidFile], currentDirectory: folder.path)
            #expect(missing.status == 1, "\(missing)")
            #expect(missing.stderr.contains("\(pidFile) does not exist"), "\(missing)")

            // A pid file naming this test process (no mockd): left unsignalled, and removed as stale.
            try folder.write("other.pid", "\(getpid())\n")
            let other = try await runProcess(CLITests.executable, ["stop", "--pid-file", pidFile], currentDirectory: folder.path)
            #expect(other.status == 0, "\(other)")
            #expect(other.stdout.contains("nothing to stop (process \(getpid()) is "), "\(other)")
            #expect(other.stdout.contains("not a mockd"), "\(other)")
            #expect(!FileManager.default.fileExists(atPath: pidFile))

            try folder.write("other.pid", "not a number\n")
            let garbage = try await runProcess(CLITests.executable, ["stop", "--pid-file", pidFile], currentDirectory: folder.path)
            #expect(garbage.status == 0, "\(garbage)")
            #expect(garbage.stdout.contains("it holds no process id"), "\(garbage)")
        }
    }
}
