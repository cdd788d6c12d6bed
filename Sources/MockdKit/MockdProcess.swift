#if os(macOS) || os(Linux)
public import Foundation

/// Runs a mockd executable for the length of a test suite: on a free port of 127.0.0.1, over a
/// data root of the test's own. macOS and Linux only (a simulator cannot start processes).
///
/// ```swift
/// let mockd = MockdProcess(root: fixtures.appendingPathComponent("MockData"))
/// let client = try await mockd.start()
/// defer { Task { await mockd.stop() } }
/// let health = try await client.health()
/// ```
///
/// ``start(timeout:)`` runs `mockd --root ROOT [--routes DIR] --port 0 --host 127.0.0.1`
/// followed by ``arguments``, and returns once mockd has printed the line it prints when it
/// listens: no polling, no sleeping. The child's environment is this process's without any
/// `MOCKD_*` variable, so a developer's shell settings (`MOCKD_ADMIN_TOKEN`, `MOCKD_PROXY`…) do
/// not change the server a test talks to; give such settings as ``arguments``.
///
/// The state lives behind a lock, which is why the class is `@unchecked Sendable`.
public final class MockdProcess: @unchecked Sendable {
    /// The executable given to ``init(executable:root:routes:arguments:adminToken:)``, or `nil` to
    /// look for `mockd` on `PATH`.
    public let executable: URL?
    /// The data root (`--root`).
    public let root: URL
    /// The routes folder (`--routes`), or `nil` for mockd's default (`routes` beside the root).
    public let routes: URL?
    /// Further arguments, after the ones the process sets (`["--scenario", "empty"]`).
    public let arguments: [String]
    /// The admin token given to mockd as `--admin-token`, and to the client ``start(timeout:)``
    /// returns.
    public let adminToken: String?

    private let condition = NSCondition()
    private var process: Process?
    private var listeningURL: URL?
    private var standardOutputEnded = false
    private var exitStatus: Int32?
    private var printed = ""

    /// The most of mockd's output ``output`` keeps, in characters.
    private static let outputLimit = 64 * 1024

    /// A process not started yet.
    ///
    /// - Parameters:
    ///   - executable: The mockd executable; `nil` looks for `mockd` on `PATH`.
    ///   - root: The data root.
    ///   - routes: The routes folder, or `nil` for mockd's default.
    ///   - arguments: Further arguments, such as `["--scenario", "empty"]`.
    ///   - adminToken: A token the admin API will require, or `nil` for none.
    public init(executable: URL? = nil, root: URL, routes: URL? = nil, arguments: [String] = [], adminToken: String? = nil) {
        self.executable = executable
        self.root = root
        self.routes = routes
        self.arguments = arguments
        self.adminToken = adminToken
    }

    deinit {
        // A process left running would outlive the tests; stop() is the way to wait for it.
        if let process, process.isRunning { process.terminate() }
    }

    /// The main port's URL once mockd listens, else `nil`.
    public var url: URL? {
        condition.lock()
        defer { condition.unlock() }
        return listeningURL
    }

    /// What mockd printed on stdout and stderr so far (its last 64 KiB): startup lines,
    /// configuration errors, one access-log line per request.
    public var output: String {
        condition.lock()
        defer { condition.unlock() }
        return printed
    }

    /// Starts mockd and returns a client for it once it listens.
    ///
    /// - Parameter timeout: Seconds to wait for mockd to listen; past them the process is
    ///   stopped and the call throws.
    /// - Returns: A client for the main port.
    /// - Throws: ``MockdError/processFailed(_:)`` when there is no executable, mockd exits first
    ///   (a configuration error: the text holds what it printed), or it does not listen in time.
    public func start(timeout: TimeInterval = 15) async throws -> MockdClient {
        try launch()
        let deadline = Date(timeIntervalSinceNow: timeout)
        // The wait is a condition variable that the output readers and the termination handler
        // signal; it runs on a thread of its own, never on the concurrency pool.
        let result: Result<URL, MockdError> = await withCheckedContinuation { continuation in
            let waiter = Thread { continuation.resume(returning: self.waitUntilListening(deadline: deadline)) }
            waiter.name = "MockdProcess.start"
            waiter.start()
        }
        switch result {
        case .success(let url):
            return MockdClient(url: url, token: adminToken)
        case .failure(let error):
            await stop()
            throw error
        }
    }

    /// Stops mockd: SIGTERM, which lets it finish the requests in flight, then waits for it to
    /// exit; after `timeout` seconds, SIGKILL. Does nothing when it is not running.
    ///
    /// - Parameter timeout: Seconds to wait for mockd to exit after SIGTERM.
    public func stop(timeout: TimeInterval = 5) async {
        guard let running = startedProcess, running.isRunning else { return }
        running.terminate()
        let deadline = Date(timeIntervalSinceNow: timeout)
        let exited: Bool = await withCheckedContinuation { continuation in
            let waiter = Thread { continuation.resume(returning: self.waitForExit(deadline: deadline)) }
            waiter.name = "MockdProcess.stop"
            waiter.start()
        }
        if !exited, running.isRunning {
            // Foundation's Process sends SIGTERM and SIGINT only; kill(2) comes with it.
            _ = kill(running.processIdentifier, SIGKILL)
            _ = await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: self.waitForExit(deadline: .distantFuture)) }.start()
            }
        }
    }

    // MARK: Launching

    /// The process, once launched (a synchronous accessor: async code may not take the lock).
    private var startedProcess: Process? {
        condition.lock()
        defer { condition.unlock() }
        return process
    }

    private func launch() throws {
        condition.lock()
        defer { condition.unlock() }
        guard process == nil else { throw MockdError.processFailed("start() was called already") }
        let process = Process()
        process.executableURL = try executable ?? Self.onPath("mockd")
        var arguments = ["--root", root.path]
        if let routes { arguments += ["--routes", routes.path] }
        arguments += ["--port", "0", "--host", "127.0.0.1"]
        if let adminToken { arguments += ["--admin-token", adminToken] }
        process.arguments = arguments + self.arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MOCKD_") }
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardOutput = standardOutput
        process.standardError = standardError
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [self] ended in
            condition.lock()
            exitStatus = ended.terminationStatus
            condition.broadcast()
            condition.unlock()
        }
        do {
            try process.run()
        } catch {
            throw MockdError.processFailed("could not run \(process.executableURL?.path ?? "mockd"): \(error)")
        }
        self.process = process
        read(standardOutput.fileHandleForReading, lookingForListening: true)
        read(standardError.fileHandleForReading, lookingForListening: false)
    }

    /// Reads `handle` to its end on a thread of its own (mockd must never block on a full pipe),
    /// keeping the lines in ``output``; on stdout, the first listening line gives the URL.
    private func read(_ handle: FileHandle, lookingForListening: Bool) {
        let reader = Thread { [self] in
            var pending = Data()
            // availableData: one read(2), whatever has come (read(upToCount:) would wait for the
            // whole count on Linux, and the listening line is far shorter); empty at the end.
            while case let chunk = handle.availableData, !chunk.isEmpty {
                pending.append(chunk)
                guard let lastNewline = pending.lastIndex(of: UInt8(ascii: "\n")) else { continue }
                let text = String(decoding: pending[..<lastNewline], as: UTF8.self)
                pending.removeSubrange(...lastNewline)
                record(text, lookingForListening: lookingForListening)
            }
            if !pending.isEmpty { record(String(decoding: pending, as: UTF8.self), lookingForListening: lookingForListening) }
            condition.lock()
            if lookingForListening { standardOutputEnded = true }
            condition.broadcast()
            condition.unlock()
        }
        reader.name = lookingForListening ? "MockdProcess.stdout" : "MockdProcess.stderr"
        reader.start()
    }

    private func record(_ lines: String, lookingForListening: Bool) {
        condition.lock()
        defer { condition.unlock() }
        printed += lines + "\n"
        if printed.count > Self.outputLimit { printed = String(printed.suffix(Self.outputLimit)) }
        guard lookingForListening, listeningURL == nil else { return }
        for line in lines.split(separator: "\n") {
            if let url = Self.listeningURL(in: String(line)) {
                listeningURL = url
                condition.broadcast()
                return
            }
        }
    }

    private func waitUntilListening(deadline: Date) -> Result<URL, MockdError> {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let listeningURL { return .success(listeningURL) }
            if let exitStatus {
                return .failure(.processFailed("mockd exited with status \(exitStatus) before it listened; it printed:\n\(printed)"))
            }
            if standardOutputEnded {
                return .failure(.processFailed("mockd closed its output before it listened; it printed:\n\(printed)"))
            }
            if !condition.wait(until: deadline) {
                if let listeningURL { return .success(listeningURL) }
                return .failure(.processFailed("mockd did not listen within the timeout; it printed:\n\(printed)"))
            }
        }
    }

    /// `true` once the process has exited, `false` when `deadline` came first.
    private func waitForExit(deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while exitStatus == nil {
            if !condition.wait(until: deadline) { return exitStatus != nil }
        }
        return true
    }

    // MARK: Helpers

    /// The URL in mockd's listening line: `mockd listening on http://127.0.0.1:PORT (…)`, or
    /// with `--log-format json` `{"message":"listening","urls":["http://…"],…}`.
    static func listeningURL(in line: String) -> URL? {
        let prefix = "mockd listening on "
        if line.hasPrefix(prefix) {
            let address = line.dropFirst(prefix.count).prefix { $0 != " " }
            return URL(string: String(address))
        }
        struct Listening: Decodable { var message: String; var urls: [String] }
        if line.hasPrefix("{"), let listening = try? JSONDecoder().decode(Listening.self, from: Data(line.utf8)),
           listening.message == "listening", let first = listening.urls.first {
            return URL(string: first)
        }
        return nil
    }

    /// The first executable file called `name` in a folder of `PATH`.
    static func onPath(_ name: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw MockdError.processFailed("no \(name) on PATH (\(path)); give MockdProcess(executable:) the path")
    }
}
#endif
