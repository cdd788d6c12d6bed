import ArgumentParser
import MockdCore
import MockdHTTP
import MockdServe

/// `mockd push NAME`: asks a running mockd to send the payload `pushes/NAME.apns` to a simulator
/// (`POST /__mockd/push`), for a script or a terminal; prints mockd's answer, exits 1 unless it
/// is a 2xx. A client of the admin API, like `mockd health`.
struct PushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Ask a running mockd to send a push payload (pushes/NAME.apns) to a simulator."
    )

    @Argument(help: ArgumentHelp("The payload file's name, without .apns.", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("A simulator's UDID, or booted. [default: the session's, else booted]", valueName: "udid"))
    var device: String?

    @Option(
        name: .customLong("bundle-id"),
        help: ArgumentHelp(
            "The app. [default: the session's, else the payload's Simulator Target Bundle, else --push-bundle-id]", valueName: "id"))
    var bundleID: String?

    @Option(help: ArgumentHelp("The session it is for: its simulator, scenario and journal.", valueName: "id"))
    var session: String?

    @Option(name: .customLong("after-ms"), help: ArgumentHelp("Send it this many milliseconds later.", valueName: "ms"))
    var afterMilliseconds: Int?

    @Option(help: ArgumentHelp("Host of the mockd to ask. [env: MOCKD_HOST; 0.0.0.0 and localhost mean 127.0.0.1]", valueName: "host"))
    var host = ServeSettings.defaults.server.host

    @Option(name: [.short, .long], help: ArgumentHelp("Port of the mockd to ask. [env: MOCKD_PORT]", valueName: "port"))
    var port = ServeSettings.defaults.server.port

    func run() throws {
        Signals.unblock()
        var members: [(key: String, value: JSONValue)] = [("name", .string(name))]
        if let device { members.append(("device", .string(device))) }
        if let bundleID { members.append(("bundleId", .string(bundleID))) }
        if let session { members.append(("session", .string(session))) }
        if let afterMilliseconds { members.append(("afterMs", .number(afterMilliseconds))) }
        // simctl takes a second or two; mockd stops it after 30.
        let probe = HealthProbe(
            host: HealthProbe.address(of: host), port: port, timeoutSeconds: 40, token: EnvironmentArguments.value("MOCKD_ADMIN_TOKEN"))
        let answer: (status: Int, body: String)
        do {
            answer = try probe.run("POST", "/__mockd/push", body: Array(JSONValue.object(members).serialized.utf8))
        } catch let failure as HealthProbe.Failure {
            FileHandleOutput.standardError("mockd push: \(failure.message)")
            throw ExitCode.failure
        }
        let body = HealthCommand.trimmingWhiteSpace(answer.body)
        guard (200...299).contains(answer.status) else {
            FileHandleOutput.standardError("mockd push: HTTP \(answer.status)\n\(body)")
            throw ExitCode.failure
        }
        print(body)
    }
}
