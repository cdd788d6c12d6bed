import Foundation
import MockdKit
import MockdLock
import Testing
import TestSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

struct ProcessResult: Sendable, CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
}

struct ProcessTimeout: Error, CustomStringConvertible {
    let description: String
}

/// A child process the test started; `stop()` (always called by the helpers) kills it by PID
/// if it is still running. stdout is a pipe read with deadlines; stderr goes to a file. Started
/// with posix_spawn (see MockdKit's `Spawn`), reaped by a thread of its own.
final class ChildProcess: @unchecked Sendable {  // pid: set once in init
    fileprivate let stdoutPipe = Pipe()
    let stderrPath: String
    private let exited = DispatchSemaphore(value: 0)
    private let status = ExitStatus()
    /// Bytes read from stdout after the last line handed out.
    fileprivate let pending = Lock<[UInt8]>([])
    private(set) var pid: pid_t = 0

    /// `environment` is added to this process's environment without any `MOCKD_*` or `NOTIFY_SOCKET`.
    init(executable: String, arguments: [String], environment: [String: String] = [:], currentDirectory: String, stderrPath: String) throws
    {
        self.stderrPath = stderrPath
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        let launch = OrphanGuard.command(executable, arguments)
        var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MOCKD_") && $0.key != "NOTIFY_SOCKET" }
        inherited.merge(environment) { _, new in new }
        let started = StartedPID()
        let stdout = stdoutPipe.fileHandleForWriting.fileDescriptor
        try OrphanGuard.spawn { [inherited] in
            started.pid = try Spawn.start(
                launch.executable, launch.arguments, environment: inherited,
                directory: currentDirectory, stdout: stdout, stderr: .file(stderrPath))
        }
        pid = started.pid
        // The child has its copy; with ours closed, stdout ends when the child's does.
        try? stdoutPipe.fileHandleForWriting.close()
        let (pid, status, exited) = (pid, status, exited)
        Thread {
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            // As Process's terminationStatus: the exit code, or the number of the signal that ended it.
            let code = raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
            status.value.withLock { $0 = code }
            exited.signal()
        }.start()
    }

    func send(_ signal: Int32) { kill(pid, signal) }

    /// The next line on stdout, without its newline. Blocking; throws at the deadline.
    func readLine(timeout: Duration = eventDeadline) throws -> String {
        let deadline = Deadline(timeout)
        let fd = stdoutPipe.fileHandleForReading.fileDescriptor
        var bytes = pending.withLock { $0 }
        while true {
            if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                pending.withLock { $0 = Array(bytes[(newline + 1)...]) }
                return String(decoding: bytes[..<newline], as: UTF8.self)
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, deadline.remainingMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else {
                throw ProcessTimeout(
                    description:
                        "no line on stdout within \(timeout); got \(String(decoding: bytes, as: UTF8.self).debugDescription); stderr: \(stderrText())"
                )
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else {
                throw ProcessTimeout(
                    description:
                        "stdout closed before a full line; got \(String(decoding: bytes, as: UTF8.self).debugDescription); stderr: \(stderrText())"
                )
            }
            bytes.append(contentsOf: chunk.prefix(count))
        }
    }

    func stderrText() -> String {
        (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
    }

    /// Polls stderr until it contains `text`; false at the deadline.
    func waitForStderr(containing text: String, timeout: Duration = eventDeadline) -> Bool {
        let deadline = Deadline(timeout)
        while !deadline.hasPassed {
            if stderrText().contains(text) { return true }
            // Wake on exit, or look again in a moment: the log is flushed every 100 ms.
            if exited.wait(timeout: .now() + .milliseconds(20)) == .success { exited.signal() }
        }
        return stderrText().contains(text)
    }

    /// The exit status, or nil when it is still running at the deadline. Blocking.
    func waitForExit(timeout: Duration = eventDeadline) -> Int32? {
        if let status = status.value.withLock({ $0 }) { return status }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        guard exited.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return nil }
        exited.signal()
        return status.value.withLock { $0 }
    }

    /// Polls until the process has exited (a zombie or reaped), without waiting for the reaping
    /// thread, which can lag behind on a busy machine. True when it exited in time.
    func waitUntilExited(timeout: Duration) -> Bool {
        #if os(Linux)
            let deadline = Deadline(timeout)
            repeat {
                if status.value.withLock({ $0 }) != nil { return true }
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                    let close = stat.lastIndex(of: ")")
                else { return true }
                // pid (comm) STATE …
                if stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z") { return true }
                usleep(2_000)
            } while !deadline.hasPassed
            return false
        #else
            return waitForExit(timeout: timeout) != nil
        #endif
    }

    /// Kills it (by PID) if it still runs and reaps it.
    func stop() {
        if status.value.withLock({ $0 }) != nil { return }
        kill(pid, SIGKILL)
        _ = waitForExit(timeout: .seconds(5))
    }
}

/// Runs a program to completion with a deadline, stdout and stderr captured in files.
func runProcess(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:],
    currentDirectory: String? = nil, timeout: Duration = .seconds(60)
) async throws -> ProcessResult {
    let scratch = try TemporaryFolder()
    defer { scratch.remove() }
    let directory = currentDirectory ?? scratch.path
    return try await blocking {
        let child = try ChildProcess(
            executable: executable, arguments: arguments, environment: environment,
            currentDirectory: directory, stderrPath: scratch.child("stderr"))
        defer { child.stop() }
        let stdout = child.remainingStdoutWithin(timeout)
        guard let status = child.waitForExit(timeout: timeout) else {
            throw ProcessTimeout(description: "\(executable) \(arguments.prefix(3)) still running after \(timeout)")
        }
        return ProcessResult(status: status, stdout: stdout, stderr: child.stderrText())
    }
}

extension ChildProcess {
    /// Reads stdout until the process closes it or the deadline passes (the pipe never fills up).
    func remainingStdoutWithin(_ timeout: Duration) -> String {
        let deadline = Deadline(timeout)
        let fd = stdoutPipe.fileHandleForReading.fileDescriptor
        var bytes = pending.withLock { $0 }
        pending.withLock { $0 = [] }
        while !deadline.hasPassed {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, deadline.remainingMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk.prefix(count))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// curl, for requests URLSession will not make the same way.
func runCurl(_ arguments: [String]) async throws -> ProcessResult {
    let path = ["/usr/bin/curl", "/usr/local/bin/curl", "/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }
    let curl = try #require(path, "curl is not installed")
    return try await runProcess(curl, arguments)
}

/// The exit status, set once by the thread that reaps the child.
private final class ExitStatus: Sendable {
    let value = Lock<Int32?>(nil)
}

/// The PID the spawner thread got, read after `OrphanGuard.spawn` returns.
private final class StartedPID: @unchecked Sendable {  // written before the spawner signals, read after
    var pid: pid_t = 0
}
