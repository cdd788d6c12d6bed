import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `mockd health`: exit 0 when a mockd answers `GET /__mockd/health` with 200. Made for
/// Docker's HEALTHCHECK, so it reads the same MOCKD_* variables as the server.
struct HealthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Exit 0 if a running mockd answers its health check (for Docker healthchecks)."
    )

    @Option(help: ArgumentHelp("Host of the mockd to ask. [env: MOCKD_HOST; 0.0.0.0 and localhost mean 127.0.0.1]", valueName: "host"))
    var host: String?

    @Option(name: [.short, .long], help: ArgumentHelp("Port of the mockd to ask. [env: MOCKD_PORT; default: 8080]", valueName: "port"))
    var port: Int?

    @Option(help: ArgumentHelp("Seconds to wait for the answer.", valueName: "seconds"))
    var timeout: Int = 2

    @Option(help: ArgumentHelp("Ask again until mockd answers, for up to this many seconds (a script that has just started mockd in the background). [default: 0, ask once]", valueName: "seconds"))
    var wait: Int = 0

    func run() throws {
        Signals.unblock()
        var target = host ?? Environment.string("MOCKD_HOST") ?? "127.0.0.1"
        if target == "0.0.0.0" || target == "localhost" { target = "127.0.0.1" }
        if target == "::" { target = "::1" }
        let port = try self.port ?? Environment.int("MOCKD_PORT") ?? 8080
        let token = Environment.string("MOCKD_ADMIN_TOKEN")
        let probe = HealthProbe(host: target, port: port, timeoutSeconds: timeout, token: token)
        // A mockd just started may not listen yet (refused) or not have loaded (503): ask again
        // every 100 ms until `wait` is over. Plain polling: a process outside cannot be told.
        let deadline = ContinuousClock.now + .seconds(max(0, wait))
        while true {
            let problem: String
            do {
                let answer = try probe.run()
                if answer.status == 200 {
                    print(Self.trimmingWhiteSpace(answer.body))
                    return
                }
                problem = "\(target):\(port) answered HTTP \(answer.status)"
            } catch let error as HealthProbe.Failure {
                problem = error.message
            }
            guard ContinuousClock.now < deadline else {
                FileHandleOutput.standardError("mockd health: \(problem)\(wait > 0 ? " (asked for \(wait) s)" : "")")
                throw ExitCode.failure
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 100_000_000)
            nanosleep(&pause, nil)
        }
    }

    /// `text` without white space and line breaks at either end: Unicode's White_Space
    /// scalars, the same set as Foundation's `.whitespacesAndNewlines`.
    static func trimmingWhiteSpace(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
