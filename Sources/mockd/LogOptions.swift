import ArgumentParser
import Logging
import MockdHTTP
import MockdServe

/// How mockd writes its log lines, and which it leaves out.
struct LogOptions: ParsableArguments {
    @Option(name: .customLong("log-format"), help: ArgumentHelp("How log lines are written. [env: MOCKD_LOG_FORMAT]", valueName: "format"))
    var logFormat = ServeSettings.defaults.logFormat

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp("The least a line must matter to be logged; info logs every request. [env: MOCKD_LOG_LEVEL]", valueName: "level")
    )
    var logLevel = ServeSettings.defaults.logLevel

    func apply(to settings: inout ServeSettings) {
        settings.logFormat = logFormat
        settings.logLevel = logLevel
    }
}
