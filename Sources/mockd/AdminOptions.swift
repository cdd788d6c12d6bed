import ArgumentParser
import MockdHTTP
import MockdServe

/// The admin API under `/__mockd/` and what it keeps: who may call it, the request journal it
/// serves, and the session ports it opens.
struct AdminOptions: ParsableArguments {
    @Option(
        name: .customLong("journal-size"),
        help: ArgumentHelp("Requests kept for GET /__mockd/requests; 0 turns the journal off. [env: MOCKD_JOURNAL_SIZE]", valueName: "n"))
    var journalSize = ServeSettings.defaults.journalSize

    @Option(
        name: .customLong("journal-body-bytes"),
        help: ArgumentHelp("Bytes of each request body kept in the journal. [env: MOCKD_JOURNAL_BODY_BYTES]", valueName: "n"))
    var journalBodyBytes = ServeSettings.defaults.journalBodyBytes

    @Option(
        name: .customLong("max-sessions"),
        help: ArgumentHelp("Session ports (POST /__mockd/sessions) open at once; more get 503. [env: MOCKD_MAX_SESSIONS]", valueName: "n"))
    var maxSessions = ServeSettings.defaults.server.maxSessions

    @Option(
        name: .customLong("session-ports"),
        help: ArgumentHelp(
            "Take session ports from this range (for a container that publishes them); default: any free port. [env: MOCKD_SESSION_PORTS]",
            valueName: "A-B"))
    var sessionPorts: String?

    @Flag(name: .customLong("no-admin"), help: "Do not serve the admin API under /__mockd/. [env: MOCKD_NO_ADMIN]")
    var noAdmin = !ServeSettings.defaults.server.adminEnabled

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

    /// nil: decided by the address listened on, which the help says in words.
    @Option(
        name: .customLong("journal-credentials"),
        help: ArgumentHelp(
            "Credential values (Authorization, Cookie, *token*, *secret*…) in the journal. [env: MOCKD_JOURNAL_CREDENTIALS; default: keep on loopback, redact otherwise]",
            valueName: "policy"))
    var journalCredentials: ServerConfiguration.CredentialPolicy?

    @Option(
        name: .customLong("push-command"),
        help: ArgumentHelp(
            "Send pushes (POST /__mockd/push) with this executable, given 'simctl push DEVICE BUNDLE -' and the payload on stdin. [env: MOCKD_PUSH_COMMAND; default: xcrun on PATH]",
            valueName: "path"))
    var pushCommand: String?

    @Option(
        name: .customLong("push-bundle-id"),
        help: ArgumentHelp(
            "The app a push goes to when neither the call, its session nor the payload names one. [env: MOCKD_PUSH_BUNDLE_ID]",
            valueName: "id"))
    var pushBundleID: String?

    func validate() throws {
        try OptionRange.check(journalSize, "journal-size", 0...Int.max)
        try OptionRange.check(journalBodyBytes, "journal-body-bytes", 0...Int.max)
        try OptionRange.check(maxSessions, "max-sessions", 0...10_000)
        if let sessionPorts, ServerConfiguration.portRange(sessionPorts) == nil {
            throw ValidationError("--session-ports \(sessionPorts): expected a range of ports like 50000-50063")
        }
    }

    func apply(to settings: inout ServeSettings) {
        settings.journalSize = journalSize
        settings.journalBodyBytes = journalBodyBytes
        settings.server.maxSessions = maxSessions
        settings.server.sessionPorts = sessionPorts.flatMap(ServerConfiguration.portRange)
        settings.server.adminEnabled = !noAdmin
        settings.server.adminToken = adminToken
        settings.server.allowedHosts = ProxyOptions.names(allowedHosts)
        settings.server.journalCredentials = journalCredentials
        settings.pushCommand = pushCommand
        settings.server.pushBundleID = pushBundleID
    }
}
