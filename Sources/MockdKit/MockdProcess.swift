#if os(macOS) || os(Linux)
    public import Foundation

    /// Runs a mockd executable for the length of a test or a suite: on a free port of 127.0.0.1,
    /// over a data root of the test's own. macOS and Linux only (a simulator cannot start processes).
    ///
    /// ```swift
    /// let mockd = MockdProcess(root: fixtures.appendingPathComponent("MockData"))
    /// let client = try await mockd.start()
    /// let health = try await client.health()
    /// // …
    /// await mockd.stop()
    /// ```
    ///
    /// ``start(timeout:)`` runs `mockd --root ROOT [--routes DIR] --port 0 --host 127.0.0.1`
    /// followed by ``arguments``, and returns once mockd has printed the line it prints when it
    /// listens: no polling, no sleeping. The child's environment is this process's without any
    /// `MOCKD_*` variable, so a developer's shell settings (`MOCKD_ADMIN_TOKEN`, `MOCKD_PROXY`…) do
    /// not change the server a test talks to; give such settings as ``arguments``.
    ///
    /// Call ``stop(timeout:)`` when done; a `MockdProcess` that goes away while mockd runs sends it
    /// SIGTERM without waiting. The state lives behind a lock, which is why the class is
    /// `@unchecked Sendable`.
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

        /// What the pipe readers and the termination handler share with the caller. A class of its
        /// own, so that those (which live as long as mockd does) do not keep the `MockdProcess` alive
        /// and its `deinit` can still stop a forgotten mockd.
        private let run = Run()

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
            // A mockd left running would outlive the tests; stop() is the way to wait for it.
            run.signal(SIGTERM)
        }

        /// The main port's URL once mockd listens, else `nil`.
        public var url: URL? { run.locked { $0.listeningURL } }

        /// `true` from ``start(timeout:)`` until mockd has exited.
        public var isRunning: Bool { run.locked { $0.pid != nil && $0.exitStatus == nil } }

        /// mockd's process ID once started (until it has exited and been reaped, for as long as
        /// ``isRunning`` is `true`), else `nil`.
        public var processIdentifier: Int32? { run.locked { $0.exitStatus == nil ? $0.pid : nil } }

        /// What mockd printed on stdout and stderr so far (the last 64 KiB): startup lines,
        /// configuration errors, one access-log line per request. Complete once ``stop(timeout:)``
        /// has returned.
        public var output: String { run.locked { $0.printed } }

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
            let run = self.run
            let result = await Self.onThread(named: "MockdProcess.start") { run.waitUntilListening(deadline: deadline) }
            switch result {
            case .success(let url):
                return MockdClient(url: url, token: adminToken)
            case .failure(let error):
                await stop()
                throw error
            }
        }

        /// Stops mockd: SIGTERM, which lets it finish the requests in flight, then waits for it to
        /// exit and for the last of its output; after `timeout` seconds, SIGKILL. Does nothing when it
        /// is not running.
        ///
        /// - Parameter timeout: Seconds to wait for mockd to exit after SIGTERM.
        public func stop(timeout: TimeInterval = 5) async {
            let run = self.run
            guard run.signal(SIGTERM) else { return }
            let deadline = Date(timeIntervalSinceNow: timeout)
            let exited = await Self.onThread(named: "MockdProcess.stop") { run.waitForExit(deadline: deadline) }
            guard !exited, run.signal(SIGKILL) else { return }
            let killed = Date(timeIntervalSinceNow: timeout)
            _ = await Self.onThread(named: "MockdProcess.stop") { run.waitForExit(deadline: killed) }
        }

        // MARK: Launching

        /// Started with posix_spawn (MockdKit's `Spawn`), not Foundation's `Process`, whose
        /// `run()` on Linux crashes a test process that has many descriptors open.
        private func launch() throws {
            let executable = try self.executable ?? Self.onPath("mockd")
            var arguments = ["--root", root.path]
            if let routes { arguments += ["--routes", routes.path] }
            arguments += ["--port", "0", "--host", "127.0.0.1"]
            if let adminToken { arguments += ["--admin-token", adminToken] }
            let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MOCKD_") }
            let standardOutput = Pipe()
            let standardError = Pipe()
            let run = self.run
            try run.locked { state in
                guard state.pid == nil else { throw MockdError.processFailed("start() was called already") }
                do {
                    state.pid = try Spawn.start(
                        executable.path, arguments + self.arguments, environment: environment,
                        stdout: standardOutput.fileHandleForWriting.fileDescriptor,
                        stderr: .descriptor(standardError.fileHandleForWriting.fileDescriptor))
                } catch {
                    throw MockdError.processFailed("could not run \(executable.path): \(error)")
                }
            }
            // The child has its copies; with ours closed, each pipe ends when the child's end does.
            try? standardOutput.fileHandleForWriting.close()
            try? standardError.fileHandleForWriting.close()
            run.reap()
            run.read(standardOutput.fileHandleForReading, lookingForListening: true)
            run.read(standardError.fileHandleForReading, lookingForListening: false)
        }

        /// `work` on a thread of its own: the waits block on a condition variable, which must not
        /// happen on the concurrency pool's few threads.
        private static func onThread<T: Sendable>(named name: String, _ work: @escaping @Sendable () -> T) async -> T {
            await withCheckedContinuation { continuation in
                let thread = Thread { continuation.resume(returning: work()) }
                thread.name = name
                thread.start()
            }
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
                listening.message == "listening", let first = listening.urls.first
            {
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

    /// One run of mockd: the process, what it printed, whether it listens or has exited. Every
    /// field is read and written under `condition`'s lock, hence `@unchecked Sendable`.
    private final class Run: @unchecked Sendable {
        struct State {
            /// The child's process ID, once spawned.
            var pid: pid_t?
            var listeningURL: URL?
            var readersEnded = 0
            var exitStatus: Int32?
            var printed = ""
        }

        /// The most of mockd's output kept, in characters.
        static let outputLimit = 64 * 1024

        private let condition = NSCondition()
        private var state = State()

        func locked<T>(_ body: (inout State) throws -> T) rethrows -> T {
            condition.lock()
            defer { condition.unlock() }
            return try body(&state)
        }

        /// Sends `signal` to mockd if it has not exited (and so not been reaped: its PID cannot
        /// belong to another process yet); `false` when there was nothing to signal.
        @discardableResult
        func signal(_ signal: Int32) -> Bool {
            locked { state in
                guard let pid = state.pid, state.exitStatus == nil else { return false }
                kill(pid, signal)
                return true
            }
        }

        /// Waits for mockd's exit on a thread of its own and records the status: the exit code, or
        /// the number of the signal that ended it (as Foundation's `terminationStatus`).
        func reap() {
            guard let pid = locked({ $0.pid }) else { return }
            let reaper = Thread { [self] in
                // Waits without reaping, then reaps under the lock: `signal` never sends to a PID
                // that has been reaped, and so may belong to another process.
                var info = siginfo_t()
                while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
                condition.lock()
                var raw: Int32 = 0
                while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
                state.exitStatus = raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
                condition.broadcast()
                condition.unlock()
            }
            reaper.name = "MockdProcess.wait"
            reaper.start()
        }

        /// Reads `handle` to its end on a thread of its own (mockd must never block on a full pipe),
        /// keeping the lines; on stdout, the first listening line gives the URL.
        func read(_ handle: FileHandle, lookingForListening: Bool) {
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
                state.readersEnded += 1
                condition.broadcast()
                condition.unlock()
            }
            reader.name = lookingForListening ? "MockdProcess.stdout" : "MockdProcess.stderr"
            reader.start()
        }

        private func record(_ lines: String, lookingForListening: Bool) {
            condition.lock()
            defer { condition.unlock() }
            state.printed += lines + "\n"
            if state.printed.count > Self.outputLimit { state.printed = String(state.printed.suffix(Self.outputLimit)) }
            guard lookingForListening, state.listeningURL == nil else { return }
            for line in lines.split(separator: "\n") {
                if let url = MockdProcess.listeningURL(in: String(line)) {
                    state.listeningURL = url
                    condition.broadcast()
                    return
                }
            }
        }

        func waitUntilListening(deadline: Date) -> Result<URL, MockdError> {
            condition.lock()
            defer { condition.unlock() }
            while true {
                if let url = state.listeningURL { return .success(url) }
                // Both pipes at their end: nothing more can come, and `printed` holds all of it (the
                // exit alone may be seen before the last lines, a configuration error's among them).
                if state.readersEnded == 2 {
                    let how = state.exitStatus.map { "exited with status \($0)" } ?? "closed its output"
                    return .failure(.processFailed("mockd \(how) before it listened; it printed:\n\(state.printed)"))
                }
                if !condition.wait(until: deadline) {
                    if let url = state.listeningURL { return .success(url) }
                    return .failure(.processFailed("mockd did not listen within the timeout; it printed:\n\(state.printed)"))
                }
            }
        }

        /// `true` once the process has exited and both pipes are read to their end (so `printed`
        /// holds all mockd printed), `false` when `deadline` came first.
        func waitForExit(deadline: Date) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while state.exitStatus == nil || state.readersEnded < 2 {
                if !condition.wait(until: deadline) { return state.exitStatus != nil && state.readersEnded == 2 }
            }
            return true
        }
    }
#endif
