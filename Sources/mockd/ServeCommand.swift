import ArgumentParser
import MockdHTTP
import MockdServe

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the mocks over HTTP (the default command)."
    )

    @OptionGroup var data: DataOptions

    /// Words nothing else takes: a mistyped subcommand (`mockd chek`) lands here, as serve is the default.
    @Argument(help: .hidden)
    var unexpected: [String] = []

    @OptionGroup var listen: ListenOptions
    @OptionGroup var serving: ServingOptions
    @OptionGroup var limits: LimitOptions
    @OptionGroup var proxy: ProxyOptions
    @OptionGroup var admin: AdminOptions
    @OptionGroup var log: LogOptions
    @OptionGroup var background: BackgroundOptions

    /// What the options say to run with. Each group checked its own values in its `validate()`;
    /// this only gathers them, so `validate()` and `run()` both read it.
    func settings() throws -> ServeSettings {
        var settings = ServeSettings()
        listen.apply(to: &settings.server)
        limits.apply(to: &settings.server)
        serving.apply(to: &settings)
        admin.apply(to: &settings)
        log.apply(to: &settings)
        settings.proxy = try proxy.configuration()
        return settings
    }

    /// Checked here, not in `run`, so an error is reported with serve's own usage. The groups'
    /// own checks ran before this one.
    func validate() throws {
        if let word = unexpected.first {
            throw ValidationError(UnexpectedWords.strayOption(before: word) ?? UnexpectedWords.notACommand(word))
        }
        guard background.enabled else { return }
        guard listen.port != 0 else {
            throw ValidationError("--background needs a port other than 0: the script that starts it must know where it listens")
        }
        guard !admin.noAdmin else {
            throw ValidationError("--background needs the admin API (its health check tells when mockd serves): drop --no-admin")
        }
    }

    func run() throws {
        let settings = try settings()
        if background.enabled, let pidFile = background.pidFile {
            let probe = HealthProbe(
                host: HealthProbe.address(of: settings.server.host), port: settings.server.port,
                timeoutSeconds: 2, token: settings.server.adminToken)
            let starter = BackgroundServe(pidFile: PidFile(path: pidFile), logPath: background.logFile ?? pidFile + ".log", probe: probe)
            return try starter.run(arguments: Array(CommandLine.arguments.dropFirst()))
        }
        do {
            try Serving.run(settings, loader: data.loader)
        } catch {
            switch error {
            case .usage(let message): throw ValidationError(message)
            case .reported: throw ExitCode.failure
            }
        }
    }
}
