import ArgumentParser
import Logging
import MockdCore
import MockdSystem
import MockdHTTP
import MockdProxy

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the mocks over HTTP (the default command)."
    )

    @OptionGroup var data: DataOptions

    /// Words nothing else takes: a mistyped subcommand (`mockd chek`) lands here, as serve is the default.
    @Argument(help: .hidden)
    var unexpected: [String] = []

    @Option(
        help: ArgumentHelp(
            "Address to listen on: 127.0.0.1, localhost (127.0.0.1 and ::1), 0.0.0.0 (containers), or any IP. [env: MOCKD_HOST; default: \(ServeCommand.defaults.host)]",
            valueName: "host"))
    var host: String?

    @Option(
        name: [.short, .long],
        help: ArgumentHelp(
            "Port; 0 takes a free one (the startup line shows it). [env: MOCKD_PORT; default: \(ServeCommand.defaults.port)]",
            valueName: "port"))
    var port: Int?

    @Option(help: ArgumentHelp("Scenario when a request names none. [env: MOCKD_SCENARIO; default: default]", valueName: "name"))
    var scenario: String?

    @Option(
        name: .customLong("threads"),
        help: ArgumentHelp("Worker threads. [env: MOCKD_THREADS; default: the CPUs mockd may run on, at most 8]", valueName: "n"))
    var threads: Int?

    @Option(
        name: .customLong("max-body-bytes"),
        help: ArgumentHelp(
            "Largest request body; larger ones get 413. [env: MOCKD_MAX_BODY_BYTES; default: \(ServeCommand.defaults.maxBodyBytes)]",
            valueName: "n"))
    var maxBodyBytes: Int?

    @Option(
        name: .customLong("max-body-memory"),
        help: ArgumentHelp(
            "Memory all request bodies held at once may take; past it 503 with Retry-After. Bodies no route reads are held only as far as the journal keeps them. [env: MOCKD_MAX_BODY_MEMORY; default: \(ServeCommand.defaults.maxBodyMemoryBytes)]",
            valueName: "bytes"))
    var maxBodyMemory: Int?

    @Option(
        name: .customLong("max-header-bytes"),
        help: ArgumentHelp(
            "Room for the request line and headers; larger requests get 414 or 431. [env: MOCKD_MAX_HEADER_BYTES; default: \(ServeCommand.defaults.maxHeaderBytes)]",
            valueName: "n"))
    var maxHeaderBytes: Int?

    @Option(
        name: .customLong("max-connections"),
        help: ArgumentHelp(
            "At this many open connections a new one closes the slowest (head pending longest, else idle longest); refused only when all are busy. [env: MOCKD_MAX_CONNECTIONS; default: \(ServeCommand.defaults.maxConnections)]",
            valueName: "n"))
    var maxConnections: Int?

    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp(
            "Seconds before an idle or stalled client is disconnected. [env: MOCKD_IDLE_TIMEOUT; default: \(ServeCommand.defaults.idleTimeoutSeconds)]",
            valueName: "seconds"))
    var idleTimeout: Int?

    @Option(
        name: .customLong("head-timeout"),
        help: ArgumentHelp(
            "Seconds a client has to send a whole request head, from its first byte (a dribbled head gets 408). [env: MOCKD_HEAD_TIMEOUT; default: \(ServeCommand.defaults.headTimeoutSeconds)]",
            valueName: "seconds"))
    var headTimeout: Int?

    @Option(
        name: .customLong("min-body-rate"),
        help: ArgumentHelp(
            "Bytes a second a request body must bring, over \(ServeCommand.defaults.bodyRateWindowSeconds) s; slower gets 408 and is closed (0: no minimum). [env: MOCKD_MIN_BODY_RATE; default: \(ServeCommand.defaults.minimumBodyRate)]",
            valueName: "bytes"))
    var minBodyRate: Int?

    @Option(
        help: ArgumentHelp(
            "Milliseconds added to every answer: files, routes, 404s and proxied answers (not the admin API's). [env: MOCKD_DELAY; default: 0]",
            valueName: "ms"))
    var delay: Int?

    @Option(help: ArgumentHelp("Forward requests nothing matched to this upstream (partial mocking). [env: MOCKD_PROXY]", valueName: "url"))
    var proxy: String?

    @Option(
        name: .customLong("proxy-timeout"),
        help: ArgumentHelp(
            "Seconds to wait for the upstream before answering 504. [env: MOCKD_PROXY_TIMEOUT; default: \(Int(ServeCommand.defaultProxyTimeout))]",
            valueName: "seconds"))
    var proxyTimeout: Double?

    @Flag(help: "With --proxy: save each upstream answer as a mock (a file, or a route in routes/recorded.json). [env: MOCKD_RECORD]")
    var record = false

    @Flag(name: .customLong("record-overwrite"), help: "With --record: replace mocks that already exist. [env: MOCKD_RECORD_OVERWRITE]")
    var recordOverwrite = false

    @Option(
        name: .customLong("record-headers"),
        help: ArgumentHelp(
            "With --record: more header names that make an answer a route keeping its headers, comma-separated (Location, ETag, Link, Set-Cookie, rate limits and X- headers always do). [env: MOCKD_RECORD_HEADERS]",
            valueName: "names"))
    var recordHeaders: [String] = []

    @Flag(inversion: .prefixedNo, help: "Reload when a file under the root or the routes folder changes. [env: MOCKD_WATCH; default: on]")
    var watch: Bool?

    @Option(
        name: .customLong("state-dir"),
        help: ArgumentHelp(
            "Keep what requests without a session wrote to resources in this folder, and start from it next time (sessions' copies are never saved). [env: MOCKD_STATE_DIR; default: nothing saved, each start begins from the seeds]",
            valueName: "dir"))
    var stateDir: String?

    @Option(
        name: .customLong("journal-size"),
        help: ArgumentHelp(
            "Requests kept for GET /__mockd/requests; 0 turns the journal off. [env: MOCKD_JOURNAL_SIZE; default: \(Settings().journalSize)]",
            valueName: "n"))
    var journalSize: Int?

    @Option(
        name: .customLong("journal-body-bytes"),
        help: ArgumentHelp(
            "Bytes of each request body kept in the journal. [env: MOCKD_JOURNAL_BODY_BYTES; default: \(Settings().journalBodyBytes)]",
            valueName: "n"))
    var journalBodyBytes: Int?

    @Option(
        name: .customLong("max-parked"),
        help: ArgumentHelp(
            "Requests waiting at once on delays, timeout faults or the upstream; more get 503. [env: MOCKD_MAX_PARKED; default: \(ServeCommand.defaults.maxParked)]",
            valueName: "n"))
    var maxParked: Int?

    @Option(
        name: .customLong("max-sessions"),
        help: ArgumentHelp(
            "Session ports (POST /__mockd/sessions) open at once; more get 503. [env: MOCKD_MAX_SESSIONS; default: \(ServeCommand.defaults.maxSessions)]",
            valueName: "n"))
    var maxSessions: Int?

    @Option(
        name: .customLong("session-ports"),
        help: ArgumentHelp(
            "Take session ports from this range (for a container that publishes them); default: any free port. [env: MOCKD_SESSION_PORTS]",
            valueName: "A-B"))
    var sessionPorts: String?

    @Flag(help: "Allow any origin (CORS) and answer preflight requests with 204. [env: MOCKD_CORS]")
    var cors = false

    @Flag(name: .customLong("no-admin"), help: "Do not serve the admin API under /__mockd/. [env: MOCKD_NO_ADMIN]")
    var noAdmin = false

    @Option(
        name: .customLong("admin-token"),
        help: ArgumentHelp("Require 'Authorization: Bearer <token>' on the admin API. [env: MOCKD_ADMIN_TOKEN]", valueName: "token"))
    var adminToken: String?

    @Option(
        name: .customLong("allowed-hosts"),
        help: ArgumentHelp(
            "Host names the admin API answers besides loopback, IP addresses and single-label names (comma-separated; repeatable). [env: MOCKD_ALLOWED_HOSTS]",
            valueName: "names"))
    var allowedHosts: [String] = []

    @Option(
        name: .customLong("journal-credentials"),
        help: ArgumentHelp(
            "Credential values (Authorization, Cookie, *token*, *secret*…) in the journal. [env: MOCKD_JOURNAL_CREDENTIALS; default: keep on loopback, redact otherwise]",
            valueName: "policy"))
    var journalCredentials: ServerConfiguration.CredentialPolicy?

    @Option(
        name: .customLong("log-format"),
        help: ArgumentHelp(
            "How log lines are written. [env: MOCKD_LOG_FORMAT; default: \(Settings().logFormat.rawValue)]", valueName: "format"))
    var logFormat: MockdLogHandler.Format?

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(
            "The least a line must matter to be logged; info logs every request. [env: MOCKD_LOG_LEVEL; default: \(Settings().logLevel.rawValue)]",
            valueName: "level"))
    var logLevel: Logger.Level?

    @Flag(
        help:
            "Start mockd in the background and return once it answers its health check (an Xcode scheme's pre-action); needs --pid-file and a port other than 0. Stop it with: mockd stop --pid-file FILE"
    )
    var background = false

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

    /// What `validate()` made of the options and the environment, kept for `run()`, so they are
    /// read once. Not an option: ArgumentParser keeps a property without a wrapper at its
    /// default value, and the checks run on the instance that then runs.
    var checked = CheckedSettings()

    struct CheckedSettings: Decodable {
        var settings: Settings?
        init() {}
        init(from decoder: any Decoder) {}
    }

    /// The defaults `--help` shows are the configuration's own.
    static let defaults = ServerConfiguration()
    static let defaultProxyTimeout = 30.0

    /// Everything resolved from flags, then the environment, then defaults.
    struct Settings {
        var server = ServerConfiguration()
        var scenario = Scenario.default
        var logFormat = MockdLogHandler.Format.text
        var logLevel = Logger.Level.info
        var proxy: ProxyConfiguration?
        var watch = true
        /// `--state-dir`: where resources' global state is kept across restarts (nil: nowhere).
        var stateDir: String?
        var journalSize = 1000
        var journalBodyBytes = 64 * 1024
    }

    func settings() throws -> Settings {
        var settings = Settings()
        var server = settings.server
        server.host = host ?? Environment.string("MOCKD_HOST") ?? "127.0.0.1"
        server.port = try Self.integer(port, "port", default: 8080, in: 0...65535)
        settings.scenario = scenario ?? Environment.string("MOCKD_SCENARIO") ?? Scenario.default
        server.threads = try Self.integer(threads, "threads", default: ServerConfiguration.defaultThreads, in: 1...64)
        server.maxBodyBytes = try Self.integer(maxBodyBytes, "max-body-bytes", default: server.maxBodyBytes, in: 0...Int.max)
        server.maxBodyMemoryBytes = try Self.integer(maxBodyMemory, "max-body-memory", default: server.maxBodyMemoryBytes, in: 0...Int.max)
        server.maxHeaderBytes = try Self.integer(maxHeaderBytes, "max-header-bytes", default: server.maxHeaderBytes, in: 4096...Int.max)
        server.maxConnections = try Self.integer(maxConnections, "max-connections", default: server.maxConnections, in: 1...Int.max)
        server.idleTimeoutSeconds = try Self.integer(idleTimeout, "idle-timeout", default: server.idleTimeoutSeconds, in: 1...Int.max)
        server.headTimeoutSeconds = try Self.integer(headTimeout, "head-timeout", default: server.headTimeoutSeconds, in: 1...Int.max)
        server.minimumBodyRate = try Self.integer(minBodyRate, "min-body-rate", default: server.minimumBodyRate, in: 0...Int.max)
        server.maxParked = try Self.integer(maxParked, "max-parked", default: server.maxParked, in: 0...Int.max)
        server.maxSessions = try Self.integer(maxSessions, "max-sessions", default: server.maxSessions, in: 0...10_000)
        server.sessionPorts = try (sessionPorts ?? Environment.string("MOCKD_SESSION_PORTS")).map(Self.portRange)
        server.globalDelay = .milliseconds(try Self.integer(delay, "delay", default: 0, in: 0...600_000))
        server.cors = try Self.flag(cors, "cors")
        server.adminEnabled = !(try Self.flag(noAdmin, "no-admin"))
        server.adminToken = adminToken ?? Environment.string("MOCKD_ADMIN_TOKEN")
        let hosts = allowedHosts.isEmpty ? (Environment.string("MOCKD_ALLOWED_HOSTS").map { [$0] } ?? []) : allowedHosts
        server.allowedHosts = hosts.flatMap { $0.split(separator: ",").map { String($0.filter { $0 != " " }) } }.filter { !$0.isEmpty }
        server.journalCredentials = try journalCredentials ?? Self.environmentChoice("MOCKD_JOURNAL_CREDENTIALS")
        settings.server = server
        settings.watch = try watch ?? Environment.bool("MOCKD_WATCH") ?? true
        settings.stateDir = (stateDir ?? Environment.string("MOCKD_STATE_DIR")).flatMap { $0.isEmpty ? nil : $0 }
        settings.journalSize = try Self.integer(journalSize, "journal-size", default: settings.journalSize, in: 0...Int.max)
        settings.journalBodyBytes = try Self.integer(
            journalBodyBytes, "journal-body-bytes", default: settings.journalBodyBytes, in: 0...Int.max)
        settings.logFormat = try logFormat ?? Self.environmentChoice("MOCKD_LOG_FORMAT") ?? settings.logFormat
        settings.logLevel = try logLevel ?? Self.environmentChoice("MOCKD_LOG_LEVEL") ?? settings.logLevel
        let record = try Self.flag(record, "record")
        let overwrite = try Self.flag(recordOverwrite, "record-overwrite")
        if let upstream = proxy ?? Environment.string("MOCKD_PROXY") {
            do {
                var proxy = try ProxyConfiguration(upstream: upstream)
                let timeout =
                    try proxyTimeout ?? Environment.string("MOCKD_PROXY_TIMEOUT").map { text in
                        guard let value = Double(text) else { throw ValidationError("MOCKD_PROXY_TIMEOUT=\(text): expected seconds") }
                        return value
                    } ?? Self.defaultProxyTimeout
                guard timeout > 0 else { throw ValidationError("--proxy-timeout: expected more than 0 seconds") }
                proxy.timeout = .milliseconds(Int(timeout * 1000))
                proxy.record = record
                proxy.recordOverwrite = overwrite
                proxy.recordHeaders = Self.names(
                    recordHeaders.isEmpty ? Environment.string("MOCKD_RECORD_HEADERS").map { [$0] } ?? [] : recordHeaders)
                settings.proxy = proxy
            } catch let error as ValidationError {
                throw error
            } catch {
                throw ValidationError("--proxy \(upstream): \(error)")
            }
        } else if record || overwrite || !recordHeaders.isEmpty {
            throw ValidationError("--record needs --proxy URL: it saves what the upstream answers")
        }
        return settings
    }

    /// Header names from repeated or comma-separated options (`--record-headers a,b`).
    static func names(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",").map { String($0.filter { $0 != " " }) } }.filter { !$0.isEmpty }
    }

    /// `--name`'s value, else `MOCKD_NAME` from the environment, else the default, within `range`.
    static func integer(_ flag: Int?, _ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        let result = try flag ?? Environment.int(Environment.variable(for: name)) ?? value
        guard range.contains(result) else {
            let expected = range.upperBound == Int.max ? "\(range.lowerBound) or more" : "\(range.lowerBound)-\(range.upperBound)"
            throw ValidationError("--\(name) \(result): expected \(expected)")
        }
        return result
    }

    /// `--session-ports 50000-50063`: two ports, the first not above the second.
    static func portRange(_ text: String) throws -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let low = Int(parts[0]), let high = Int(parts[1]), 1 <= low, low <= high, high <= 65535 else {
            throw ValidationError("--session-ports \(text): expected a range of ports like 50000-50063")
        }
        return low...high
    }

    /// `MOCKD_NAME`'s value as one of an option's choices; nil when it is not set.
    static func environmentChoice<Choice: RawRepresentable & CaseIterable>(_ variable: String) throws -> Choice?
    where Choice.RawValue == String {
        guard let text = Environment.string(variable) else { return nil }
        guard let choice = Choice(rawValue: text) else {
            throw ValidationError("\(variable)=\(text): expected \(Choice.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return choice
    }

    /// A flag that `MOCKD_NAME=true` also sets.
    static func flag(_ flag: Bool, _ name: String) throws -> Bool {
        try flag || (Environment.bool(Environment.variable(for: name)) ?? false)
    }

    /// Checked here, not in `run`, so an error is reported with serve's own usage.
    mutating func validate() throws {
        if let word = unexpected.first {
            throw ValidationError(Self.strayOption(before: word) ?? Self.notACommand(word))
        }
        let settings = try settings()
        checked.settings = settings
        if background {
            guard pidFile != nil else { throw ValidationError("--background needs --pid-file FILE: mockd stop --pid-file FILE ends it") }
            guard settings.server.port != 0 else {
                throw ValidationError("--background needs a port other than 0: the script that starts it must know where it listens")
            }
            guard settings.server.adminEnabled else {
                throw ValidationError("--background needs the admin API (its health check tells when mockd serves): drop --no-admin")
            }
        } else if pidFile != nil || logFile != nil {
            throw ValidationError("--pid-file and --log-file go with --background")
        }
    }

    /// An unknown option leaves its value behind, which would be taken for a command
    /// (`mockd -x 8080`: "'8080' is not a mockd command"): name the option instead.
    static func strayOption(before word: String, arguments: [String] = CommandLine.arguments) -> String? {
        guard let index = arguments.dropFirst().firstIndex(of: word), index > 1 else { return nil }
        let option = arguments[index - 1]
        guard option.hasPrefix("-"), !flags.contains(option) else { return nil }
        return "'\(option)' is not an option of mockd serve (so '\(word)' was left over); every option: mockd serve --help"
    }

    /// Options that take no value: a word after one is not its value.
    static let flags: Set<String> = [
        "--record", "--record-overwrite", "--watch", "--no-watch", "--cors", "--no-admin",
        "--openapi-query-overrides", "--no-routes", "--background", "--help", "-h", "--version",
    ]

    /// `'chek' is not a mockd command; did you mean check? The commands: serve, check, routes, health`
    static func notACommand(_ word: String) -> String {
        let commands = Mockd.configuration.subcommands.map { $0.configuration.commandName ?? "" }
        let near = commands.first { EditDistance.bounded(Array(word.lowercased().utf8), $0.utf8, bound: 2) != nil }
        return "'\(word)' is not a mockd command" + (near.map { "; did you mean \($0)?" } ?? ".")
            + " The commands: \(commands.joined(separator: ", ")) (serve is the default: mockd --root DIR --port N)"
    }

    /// The one startup warning when the admin API and the journal are reachable from the network
    /// without a token: the host they are open on and how the journal keeps credentials
    /// (`redacted`, or `in clear` with `--journal-credentials keep`); nil when they are not.
    static func exposure(_ server: ServerConfiguration) -> Logger.Metadata? {
        guard server.adminEnabled, server.adminToken == nil, !server.isLoopbackOnly else { return nil }
        return ["mockd.host": "\(server.host)", "mockd.journalCredentials": server.redactsJournalCredentials ? "redacted" : "in clear"]
    }

    /// That warning's message.
    static let exposureWarning: Logger.Message = """
        the admin API (/__mockd/) and the request journal are open to anyone who can reach the host: \
        set --admin-token (MOCKD_ADMIN_TOKEN) to require a token, or --no-admin to turn them off
        """

}
