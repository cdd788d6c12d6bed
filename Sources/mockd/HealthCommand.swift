import ArgumentParser
import MockdHTTP
import MockdServe
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
    var host = ServeSettings.defaults.server.host

    @Option(name: [.short, .long], help: ArgumentHelp("Port of the mockd to ask. [env: MOCKD_PORT]", valueName: "port"))
    var port = ServeSettings.defaults.server.port

    @Option(help: ArgumentHelp("Seconds to wait for the answer.", valueName: "seconds"))
    var timeout: Int = 2

    @Option(
        help: ArgumentHelp(
            "Ask again until mockd answers, for up to this many seconds (a script that has just started mockd in the background). [default: 0, ask once]",
            valueName: "seconds"))
    var wait: Int = 0

    func run() throws {
        Signals.unblock()
        let token = EnvironmentArguments.value("MOCKD_ADMIN_TOKEN")
        let probe = HealthProbe(host: HealthProbe.address(of: host), port: port, timeoutSeconds: timeout, token: token)
        switch probe.waitUntilHealthy(seconds: wait) {
        case .success(let body):
            print(Self.trimmingWhiteSpace(body))
        case .failure(let failure):
            FileHandleOutput.standardError("mockd health: \(failure.message)\(wait > 0 ? " (asked for \(wait) s)" : "")")
            throw ExitCode.failure
        }
    }

    /// `text` without white space and line breaks at either end: Unicode's White_Space
    /// scalars, the same set as Foundation's `.whitespacesAndNewlines`.
    static func trimmingWhiteSpace(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
