import MockdSystem
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The mockd `mockd mcp --root DIR` starts when none answers at its URL, and stops when the agent
/// goes: `mockd serve` on the URL's host and port, in a session of its own (as `serve
/// --background` starts one), its output appended to a log file, never to standard output, which
/// is the agent's protocol channel.
struct StartedMockd {
    let pid: pid_t

    /// How long a mockd may take to load and answer its health check, as for `--background`.
    static let healthySeconds = BackgroundServe.healthySeconds

    /// The arguments of `mockd serve` for it.
    static func serveArguments(root: String, host: String, port: Int, token: String?, more: [String]) -> [String] {
        ["serve", "--root", root, "--host", host, "--port", String(port)] + (token.map { ["--admin-token", $0] } ?? []) + more
    }

    /// Starts it and waits until its health check answers; a failure says why, with the end of the log.
    static func start(arguments: [String], logPath: String, probe: HealthProbe) -> Result<StartedMockd, HealthProbe.Failure> {
        let log = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard log >= 0 else { return .failure(.init(message: "cannot open the log file \(logPath): \(String(cString: strerror(errno)))")) }
        defer { close(log) }
        guard let executable = DetachedProcess.currentExecutable() else {
            return .failure(.init(message: "cannot find this program's executable to start it again"))
        }
        let pid: pid_t
        switch DetachedProcess.start(executable, arguments, log: log) {
        case .success(let child): pid = child
        case .failure(let error): return .failure(.init(message: "cannot start \(executable): \(error)"))
        }
        let waited = probe.waitUntilHealthy(seconds: healthySeconds) {
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            return "mockd exited before it answered its health check"
        }
        if case .failure(let failure) = waited {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
            return .failure(.init(message: "\(failure.message)\(BackgroundServe.ending(of: logPath))"))
        }
        return .success(StartedMockd(pid: pid))
    }

    /// SIGTERM (mockd drains its requests), then SIGKILL if it has not ended within `seconds`;
    /// waits for it, so no process is left behind the agent.
    func stop(seconds: Int = 10) {
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(seconds)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard ContinuousClock.now < deadline else {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                return
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            nanosleep(&pause, nil)
        }
    }
}
