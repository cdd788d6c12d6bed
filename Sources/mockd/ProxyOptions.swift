import ArgumentParser
import MockdProxy

/// Partial mocking (`--proxy`: what nothing matched goes upstream) and recording its answers.
struct ProxyOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Forward requests nothing matched to this upstream (partial mocking). [env: MOCKD_PROXY]", valueName: "url"))
    var proxy: String?

    @Option(
        name: .customLong("proxy-timeout"),
        help: ArgumentHelp("Seconds to wait for the upstream before answering 504. [env: MOCKD_PROXY_TIMEOUT]", valueName: "seconds"))
    var proxyTimeout = Double(ProxyConfiguration.defaultTimeout.components.seconds)

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

    func validate() throws {
        guard proxy != nil else {
            if record || recordOverwrite || !recordHeaders.isEmpty {
                throw ValidationError("--record needs --proxy URL: it saves what the upstream answers")
            }
            return
        }
        guard proxyTimeout > 0 else { throw ValidationError("--proxy-timeout: expected more than 0 seconds") }
        _ = try configuration()
    }

    /// nil without `--proxy`.
    func configuration() throws -> ProxyConfiguration? {
        guard let upstream = proxy else { return nil }
        var configuration: ProxyConfiguration
        do {
            configuration = try ProxyConfiguration(upstream: upstream)
        } catch {
            throw ValidationError("--proxy \(upstream): \(error)")
        }
        configuration.timeout = .milliseconds(Int(proxyTimeout * 1000))
        configuration.record = record
        configuration.recordOverwrite = recordOverwrite
        configuration.recordHeaders = Self.names(recordHeaders)
        return configuration
    }

    /// Header names from repeated or comma-separated options (`--record-headers a,b`).
    static func names(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",").map { String($0.filter { $0 != " " }) } }.filter { !$0.isEmpty }
    }
}
