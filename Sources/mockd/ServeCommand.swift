import ArgumentParser
import Logging
import MockdCore
import MockdHTTP
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the mocks over HTTP (the default command)."
    )

    @OptionGroup var data: DataOptions

    @Option(help: ArgumentHelp("Address to listen on: 127.0.0.1, localhost (127.0.0.1 and ::1), 0.0.0.0 (containers), or any IP. [env: MOCKD_HOST; default: 127.0.0.1]", valueName: "host"))
    var host: String?

    @Option(help: ArgumentHelp("Port; 0 takes a free one (the startup line shows it). [env: MOCKD_PORT; default: 8080]", valueName: "port"))
    var port: Int?

    @Option(help: ArgumentHelp("Scenario when a request names none. [env: MOCKD_SCENARIO; default: default]", valueName: "name"))
    var scenario: String?

    @Option(name: .customLong("threads"), help: ArgumentHelp("Worker threads. [env: MOCKD_THREADS; default: the CPUs mockd may run on, at most 8]", valueName: "n"))
    var threads: Int?

    @Option(name: .customLong("max-body-bytes"), help: ArgumentHelp("Largest request body; larger ones get 413. [env: MOCKD_MAX_BODY_BYTES; default: 10485760]", valueName: "n"))
    var maxBodyBytes: Int?

    @Option(name: .customLong("max-connections"), help: ArgumentHelp("Open connections beyond this are closed at once. [env: MOCKD_MAX_CONNECTIONS; default: 4096]", valueName: "n"))
    var maxConnections: Int?

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp("Seconds before an idle or stalled client is disconnected. [env: MOCKD_IDLE_TIMEOUT; default: 30]", valueName: "seconds"))
    var idleTimeout: Int?

    @Flag(name: .customLong("no-admin"), help: "Do not serve the admin API under /__mockd/. [env: MOCKD_NO_ADMIN]")
    var noAdmin = false

    @Option(name: .customLong("admin-token"), help: ArgumentHelp("Require 'Authorization: Bearer <token>' on the admin API. [env: MOCKD_ADMIN_TOKEN]", valueName: "token"))
    var adminToken: String?

    @Option(name: .customLong("log-format"), help: ArgumentHelp("text or json. [env: MOCKD_LOG_FORMAT; default: text]", valueName: "format"))
    var logFormat: String?

    @Option(name: .customLong("log-level"), help: ArgumentHelp("trace, debug, info, notice, warning, error, critical; info logs every request. [env: MOCKD_LOG_LEVEL; default: info]", valueName: "level"))
    var logLevel: String?

    /// Everything resolved from flags, then the environment, then defaults.
    struct Settings {
        var server = ServerConfiguration()
        var scenario = Scenario.default
        var logFormat = MockdLogHandler.Format.text
        var logLevel = Logger.Level.info
    }

    func settings() throws -> Settings {
        var settings = Settings()
        settings.server.host = host ?? Environment.string("MOCKD_HOST") ?? "127.0.0.1"
        settings.server.port = try port ?? Environment.int("MOCKD_PORT") ?? 8080
        guard (0...65535).contains(settings.server.port) else { throw ValidationError("--port \(settings.server.port): expected 0-65535") }
        settings.scenario = scenario ?? Environment.string("MOCKD_SCENARIO") ?? Scenario.default
        settings.server.threads = try threads ?? Environment.int("MOCKD_THREADS") ?? ServerConfiguration.defaultThreads
        guard (1...64).contains(settings.server.threads) else { throw ValidationError("--threads \(settings.server.threads): expected 1-64") }
        settings.server.maxBodyBytes = try maxBodyBytes ?? Environment.int("MOCKD_MAX_BODY_BYTES") ?? settings.server.maxBodyBytes
        guard settings.server.maxBodyBytes >= 0 else { throw ValidationError("--max-body-bytes: expected 0 or more") }
        settings.server.maxConnections = try maxConnections ?? Environment.int("MOCKD_MAX_CONNECTIONS") ?? settings.server.maxConnections
        guard settings.server.maxConnections >= 1 else { throw ValidationError("--max-connections: expected 1 or more") }
        settings.server.idleTimeoutSeconds = try idleTimeout ?? Environment.int("MOCKD_IDLE_TIMEOUT") ?? settings.server.idleTimeoutSeconds
        guard settings.server.idleTimeoutSeconds >= 1 else { throw ValidationError("--idle-timeout: expected 1 or more seconds") }
        settings.server.adminEnabled = !(try noAdmin || (Environment.bool("MOCKD_NO_ADMIN") ?? false))
        settings.server.adminToken = adminToken ?? Environment.string("MOCKD_ADMIN_TOKEN")
        let format = logFormat ?? Environment.string("MOCKD_LOG_FORMAT") ?? "text"
        guard let parsedFormat = MockdLogHandler.Format(rawValue: format) else {
            throw ValidationError("--log-format \(format): expected text or json")
        }
        settings.logFormat = parsedFormat
        let level = logLevel ?? Environment.string("MOCKD_LOG_LEVEL") ?? "info"
        guard let parsedLevel = Logger.Level(rawValue: level) else {
            throw ValidationError("--log-level \(level): expected one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        settings.logLevel = parsedLevel
        return settings
    }

    func validate() throws {
        _ = try settings()
    }

    func run() throws {
        // Before any thread exists: libmicrohttpd's threads inherit the blocked set.
        Signals.block()
        Signals.raiseOpenFileLimit()
        let settings = try settings()
        let sink = LogSink()
        let level = settings.logLevel
        LoggingSystem.bootstrap { label in MockdLogHandler(label: label, format: settings.logFormat, sink: sink, level: level) }
        sink.startPeriodicFlush()
        var logger = Logger(label: "mockd")
        logger.logLevel = level

        let loader = ConfigurationLoader(root: data.resolvedRoot, routes: data.resolvedRoutes)
        let loaded = loader.load()
        guard let snapshot = loaded.snapshot else {
            sink.flush()
            FileHandleOutput.standardError(ConfigurationError(loaded.diagnostics).description)
            throw ExitCode.failure
        }
        for warning in loaded.diagnostics { logger.warning("\(warning)") }

        let runtime = RuntimeState(startupScenario: settings.scenario)
        let server = HTTPServer(configuration: settings.server, snapshot: snapshot, runtime: runtime, logger: logger)
        do {
            try server.start()
        } catch {
            sink.flush()
            FileHandleOutput.standardError("mockd: \(error)")
            throw ExitCode.failure
        }
        FileHandleOutput.standardOutput(
            "mockd listening on \(server.urls.joined(separator: " and ")) (\(snapshot.fileCount) files, 0 routes, scenario \(settings.scenario))")
        let systemd = SystemdNotifier()
        systemd.notify("READY=1\nSTATUS=serving \(snapshot.fileCount) files on \(server.urls.joined(separator: " "))")

        while true {
            let signal = Signals.wait()
            if signal == SIGHUP {
                systemd.notify("RELOADING=1\nMONOTONIC_USEC=\(SystemdNotifier.monotonicMicroseconds())")
                let reloaded = loader.load()
                if let snapshot = reloaded.snapshot {
                    server.install(snapshot)
                    logger.info("reloaded", metadata: ["files": "\(snapshot.fileCount)"])
                } else {
                    logger.error("reload failed; still serving the last good configuration\n\(ConfigurationError(reloaded.diagnostics))")
                }
                systemd.notify("READY=1\nSTATUS=serving \(server.snapshot.fileCount) files on \(server.urls.joined(separator: " "))")
                continue
            }
            logger.info("stopping", metadata: ["signal": "\(signal == SIGTERM ? "SIGTERM" : "SIGINT")"])
            systemd.notify("STOPPING=1")
            server.shutdown()
            logger.info("stopped")
            sink.flush()
            return
        }
    }
}
