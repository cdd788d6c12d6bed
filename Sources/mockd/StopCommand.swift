import ArgumentParser
import MockdServe
import MockdSystem
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `mockd stop --pid-file F`: ends the mockd `serve --background --pid-file F` started, as
/// SIGTERM does (requests in flight are finished), waits for it to exit, and removes F.
struct StopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop",
        abstract: "Stop the mockd that serve --background --pid-file FILE started, and remove FILE."
    )

    @Option(name: .customLong("pid-file"), help: ArgumentHelp("The pid file given to serve --background.", valueName: "file"))
    var pidFile: String

    @Option(
        help: ArgumentHelp(
            "Seconds to wait for mockd to exit after SIGTERM (it finishes requests in flight, up to 10 s).", valueName: "seconds"))
    var timeout: Int = 15

    func run() throws {
        Signals.unblock()
        let file = PidFile(path: pidFile)
        switch file.state() {
        case .absent:
            FileHandleOutput.standardError("mockd stop: \(pidFile) does not exist: no mockd was started with it, or it was stopped already")
            throw ExitCode.failure
        case .stale(let reason):
            // Signalling would hit a process that is not the mockd the file was written for.
            file.remove()
            FileHandleOutput.standardOutput("mockd stop: nothing to stop (\(reason)); removed \(pidFile)")
        case .running(let pid):
            guard kill(pid, SIGTERM) == 0 else {
                FileHandleOutput.standardError("mockd stop: cannot signal mockd \(pid): \(String(cString: strerror(errno)))")
                throw ExitCode.failure
            }
            // Not our child, so no waitpid: asked every 50 ms until it is gone.
            let deadline = ContinuousClock.now + .seconds(max(0, timeout))
            while DetachedProcess.runningName(pid) != nil {
                guard ContinuousClock.now < deadline else {
                    FileHandleOutput.standardError(
                        "mockd stop: mockd \(pid) is still running \(timeout) s after SIGTERM; \(pidFile) is kept")
                    throw ExitCode.failure
                }
                var pause = timespec(tv_sec: 0, tv_nsec: 50_000_000)
                nanosleep(&pause, nil)
            }
            file.remove()
            FileHandleOutput.standardOutput("mockd stop: mockd \(pid) stopped; removed \(pidFile)")
        }
    }
}
