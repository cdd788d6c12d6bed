import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// A test run that is killed leaves no mockd behind.
@Suite("Orphan guard")
struct OrphanGuardTests {
    /// A stand-in for the test runner (a shell) starts mockd the way ChildProcess does, then is
    /// killed with SIGKILL: mockd must go too.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: OrphanGuard.setpriv)))
    func mockdDiesWithTheProcessThatStartedIt() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            let launch = OrphanGuard.command(CLITests.executable, ["--root", folder.path, "--port", "0", "--no-watch"])
            let quoted = ([launch.executable] + launch.arguments).map { "'\($0)'" }.joined(separator: " ")
            // The shell prints mockd's PID, then waits for ever (until killed).
            let runner = try ChildProcess(
                executable: "/bin/sh", arguments: ["-c", "\(quoted) >/dev/null 2>&1 & echo $!; wait"],
                currentDirectory: folder.path, stderrPath: folder.child("runner.stderr"))
            defer { runner.stop() }
            let mockd = try #require(Int32(try await blocking { try runner.readLine() }))
            defer { kill(mockd, SIGKILL) }
            // mockd is up (it answers), then its starter dies without any cleanup.
            // Polled off the cooperative pool, which other tests' tasks need.
            let listening = try await blocking { Self.waitUntil(.seconds(10)) { Self.listensAnyPort(mockd) } }
            #expect(listening)
            runner.send(SIGKILL)
            let gone = try await blocking { Self.waitUntil(.seconds(10)) { !Self.isAlive(mockd) } }
            #expect(gone, "mockd \(mockd) outlived the process that started it")
        }
    }

    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
            return false
        }
        return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    /// mockd has opened its listening socket (its fd list holds a socket).
    static func listensAnyPort(_ pid: Int32) -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return entries.contains {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)"))?.hasPrefix("socket:") == true
        }
    }

    static func waitUntil(_ timeout: Duration, _ condition: () -> Bool) -> Bool {
        let deadline = Deadline(timeout)
        while !deadline.hasPassed {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }
}
