import ArgumentParser
import MockdServe
import MockdSystem
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `mockd serve --background --pid-file F`: for scripts that must go on once mockd serves (an
/// Xcode scheme's pre-action). Starts this mockd again without the three background options, in
/// a session of its own with its output appended to the log file, asks its health check until it
/// answers, then writes its process id to F and returns. `mockd stop --pid-file F` ends it.
///
/// While this waits, SIGINT and SIGTERM stay blocked (as `serve` blocks them): an interrupted
/// wait would leave a mockd running that no pid file names. The wait is bounded instead.
struct BackgroundServe {
    let pidFile: PidFile
    let logPath: String
    let probe: HealthProbe

    /// How long a mockd may take to load and answer its health check.
    static let healthySeconds = 30

    /// The options only the starting process reads, and whether each takes a value.
    static let ownOptions = ["--background": false, "--pid-file": true, "--log-file": true]

    /// `arguments` (without the program) less the background options, for the mockd started.
    static func serveArguments(_ arguments: [String]) -> [String] {
        var kept: [String] = []
        var skipValue = false
        for argument in arguments {
            if skipValue { skipValue = false; continue }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if let takesValue = ownOptions[name] {
                skipValue = takesValue && !argument.contains("=")
                continue
            }
            kept.append(argument)
        }
        return kept
    }

    func run(arguments: [String]) throws {
        let replacing: Bool
        switch pidFile.state() {
        case .running(let pid):
            throw Self.failure(
                "\(pidFile.path) names mockd \(pid), which is still running; stop it first: mockd stop --pid-file \(pidFile.path)")
        case .stale:
            replacing = true
        case .absent:
            replacing = false
        }
        // Something answering already would pass the health check for the mockd started here.
        if (try? probe.run()) != nil {
            throw Self.failure("something already answers on \(probe.host):\(probe.port); stop it or choose another --port")
        }
        let log = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard log >= 0 else { throw Self.failure("cannot open the log file \(logPath): \(String(cString: strerror(errno)))") }
        guard let executable = DetachedProcess.currentExecutable() else {
            close(log)
            throw Self.failure("cannot find this program's executable to start it again")
        }
        let started = DetachedProcess.start(executable, Self.serveArguments(arguments), log: log)
        close(log)
        let pid: pid_t
        switch started {
        case .success(let child): pid = child
        case .failure(let error): throw Self.failure("cannot start \(executable): \(error)")
        }

        let waited = probe.waitUntilHealthy(seconds: Self.healthySeconds) {
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            let how = status & 0x7f == 0 ? "with status \((status >> 8) & 0xff)" : "on signal \(status & 0x7f)"
            return "mockd exited \(how) before it answered its health check"
        }
        if case .failure(let failure) = waited {
            kill(pid, SIGTERM)  // no-op once it has exited
            throw Self.failure("\(failure.message) (waited up to \(Self.healthySeconds) s)\(Self.ending(of: logPath))")
        }
        do {
            try pidFile.write(pid, replacing: replacing)
        } catch {
            kill(pid, SIGTERM)
            throw Self.failure(
                "cannot write the pid file \(pidFile.path): \(error.alreadyExists ? "it appeared meanwhile" : error.reason); mockd \(pid) was stopped"
            )
        }
        let url = probe.host.contains(":") ? "http://[\(probe.host)]:\(probe.port)" : "http://\(probe.host):\(probe.port)"
        FileHandleOutput.standardOutput(
            "mockd \(pid) serves on \(url); output to \(logPath); stop it with: mockd stop --pid-file \(pidFile.path)")
    }

    static func failure(_ message: String) -> ExitCode {
        FileHandleOutput.standardError("mockd serve --background: \(message)")
        return ExitCode.failure
    }

    /// The log's last lines, where a mockd that failed to start says why.
    static func ending(of path: String) -> String {
        guard let (memory, count) = try? FileReading.read(path) else { return "" }
        defer { memory.deallocate() }
        let lines = String(decoding: UnsafeRawBufferPointer(rebasing: memory[..<count]), as: UTF8.self)
            .split(separator: "\n").suffix(10)
        return lines.isEmpty ? "" : "; the end of \(path):\n" + lines.joined(separator: "\n")
    }
}
