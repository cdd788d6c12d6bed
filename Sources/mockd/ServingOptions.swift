import ArgumentParser
import MockdHTTP
import MockdServe

/// What `mockd serve` answers with and how that changes while it runs: the scenario, a delay on
/// every answer, CORS, reloading on edits, and resource state kept across restarts.
struct ServingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Scenario when a request names none. [env: MOCKD_SCENARIO]", valueName: "name"))
    var scenario = ServeSettings.defaults.scenario

    @Option(
        help: ArgumentHelp(
            "Milliseconds added to every answer: files, routes, 404s and proxied answers (not the admin API's). [env: MOCKD_DELAY]",
            valueName: "ms"))
    var delay = Self.milliseconds(ServeSettings.defaults.server.globalDelay)

    @Flag(help: "Allow any origin (CORS) and answer preflight requests with 204. [env: MOCKD_CORS]")
    var cors = ServeSettings.defaults.server.cors

    @Flag(inversion: .prefixedNo, help: "Reload when a file under the root or the routes folder changes. [env: MOCKD_WATCH]")
    var watch = ServeSettings.defaults.watch

    @Option(
        name: .customLong("state-dir"),
        help: ArgumentHelp(
            "Keep what requests without a session wrote to resources in this folder, and start from it next time (sessions' copies are never saved). [env: MOCKD_STATE_DIR; default: nothing saved, each start begins from the seeds]",
            valueName: "dir"))
    var stateDir: String?

    func validate() throws {
        try OptionRange.check(delay, "delay", 0...600_000)
    }

    func apply(to settings: inout ServeSettings) {
        settings.scenario = scenario
        settings.server.globalDelay = .milliseconds(delay)
        settings.server.cors = cors
        settings.watch = watch
        // `--state-dir ''` (an empty variable in a compose file) keeps nothing, as no option does.
        settings.stateDir = stateDir.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `--delay` is in whole milliseconds; the configuration keeps a `Duration`.
    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds) * 1000 + Int(duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
