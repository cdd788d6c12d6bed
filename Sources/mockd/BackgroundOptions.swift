import ArgumentParser

/// `--background`: read by the process that starts mockd and returns, never by the mockd it
/// starts (`BackgroundServe` drops them from its arguments). No `MOCKD_*` variable sets them: the
/// mockd started inherits the environment, and would start another in turn.
struct BackgroundOptions: ParsableArguments {
    @Flag(
        name: .customLong("background"),
        help:
            "Start mockd in the background and return once it answers its health check (an Xcode scheme's pre-action); needs --pid-file and a port other than 0. Stop it with: mockd stop --pid-file FILE"
    )
    var enabled = false

    @Option(
        name: .customLong("pid-file"),
        help: ArgumentHelp(
            "With --background: where its process id is written once it is healthy; refused while the file names a running mockd.",
            valueName: "file"))
    var pidFile: String?

    @Option(
        name: .customLong("log-file"),
        help: ArgumentHelp("With --background: where its output is appended. [default: the pid file's path + .log]", valueName: "file"))
    var logFile: String?

    func validate() throws {
        if enabled {
            guard pidFile != nil else { throw ValidationError("--background needs --pid-file FILE: mockd stop --pid-file FILE ends it") }
        } else if pidFile != nil || logFile != nil {
            throw ValidationError("--pid-file and --log-file go with --background")
        }
    }
}
