import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdCore
import MockdHTTP
import MockdServe
import Testing
import TestSupport

/// Pushes over real HTTP, sent by a real process: a stand-in for `xcrun` (a shell script this
/// test writes) records its arguments and standard input, and fails when told to, as simctl does
/// for a device that is not there. The real simctl runs on a Mac only.
@Suite("Pushes over HTTP")
struct PushHTTPTests {
    static let files: [String: String] = [
        "mock_api_users_get.json": "[]",
        "pushes/new-message.apns": #"""
        {"Simulator Target Bundle": "com.example.app", "aps": {"alert": {"title": "New message", "body": "id {{uuid}}"}}}
        """#,
        "pushes/sync.apns": #"{"aps": {"content-available": 1}}"#,
        "scenarios/outage/pushes/new-message.apns": #"{"aps": {"alert": "Service is down"}}"#,
        "pushes/reply.apns": #"{"aps": {"alert": {"title": "{{path.name}} replied", "body": "Re: {{json.text}}"}}}"#,
    ]
    static let table = routeTable(
        #"{"method": "POST", "path": "/api/chats/:name/messages", "response": {"status": 201, "json": {"ok": true}, "then": {"push": "reply", "afterMs": 200}}}"#
    )

    /// A stand-in `xcrun` in a folder of its own: each call leaves `call-PID.args` (one argument
    /// a line) and `call-PID.stdin`; with a file `fail` beside it, it says what simctl says of an
    /// unknown device on stderr and exits 149.
    struct StandIn {
        let folder: TemporaryFolder
        var path: String { folder.child("xcrun") }

        init() throws {
            folder = try TemporaryFolder()
            let script = """
                #!/bin/sh
                out="\(folder.path)/call-$$"
                cat > "$out.stdin.part"
                printf '%s\\n' "$@" > "$out.args.part"
                mv "$out.stdin.part" "$out.stdin"
                mv "$out.args.part" "$out.args"
                if [ -f "\(folder.path)/fail" ]; then
                  echo "Invalid device: $3" >&2
                  exit 149
                fi
                echo "Notification sent to '$4'"

                """
            try folder.write("xcrun", script)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }

        func fail() throws { try folder.write("fail", "") }

        /// What each call was given, in no particular order.
        func calls() -> [(arguments: [String], input: String)] {
            folder.files().filter { $0.hasSuffix(".args") }.map { name in
                let base = String(name.dropLast(".args".count))
                let arguments = (folder.read(name) ?? "").split(separator: "\n").map(String.init)
                return (arguments, folder.read(base + ".stdin") ?? "")
            }
        }
    }

    static func withPushServer(
        pusher: Bool = true, _ body: (RouteServer, StandIn) async throws -> Void
    ) async throws {
        let standIn = try StandIn()
        defer { standIn.folder.remove() }
        try await withRouteServer(
            files: Self.files, tables: ["chat.json": Self.table], pusher: pusher ? CommandPusher(executable: standIn.path) : nil
        ) { server in
            try await body(server, standIn)
        }
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not JSON: \(text)")
    }

    @Test func byName_RunsSimctlPushWithThePayloadOnStdin() async throws {
        try await Self.withPushServer { server, standIn in
            let answer = try await server.admin("POST", "/__mockd/push", body: #"{"name": "new-message"}"#)
            #expect(answer.status == 201, "\(answer.object)")
            #expect(answer.object["result"] as? String == "sent")
            #expect(answer.object["exitStatus"] as? Int == 0)
            #expect(answer.object["stdout"] as? String == "Notification sent to 'com.example.app'\n")
            let call = try #require(standIn.calls().first)
            #expect(call.arguments == ["simctl", "push", "booted", "com.example.app", "-"])
            let payload = try Self.json(call.input)
            let body = ((payload["aps"] as? [String: Any])?["alert"] as? [String: Any])?["body"] as? String
            #expect(body.map { UUID(uuidString: String($0.dropFirst(3))) != nil } == true, "\(call.input)")

            let journal = try await server.admin("GET", "/__mockd/requests?kind=push")
            let entry = try #require((journal.object["requests"] as? [[String: Any]])?.first)
            #expect(entry["kind"] as? String == "push")
            #expect(entry["status"] as? Int == 201)
            #expect((entry["push"] as? [String: Any])?["name"] as? String == "new-message")
            #expect((entry["push"] as? [String: Any])?["device"] as? String == "booted")
        }
    }

    @Test func givenPayload_GoesAsGivenToTheDeviceNamed() async throws {
        try await Self.withPushServer { server, standIn in
            let answer = try await server.admin(
                "POST", "/__mockd/push",
                body: #"{"payload": {"aps": {"badge": 7}}, "device": "5B1F-UDID", "bundleId": "com.example.other"}"#)
            #expect(answer.status == 201, "\(answer.object)")
            let call = try #require(standIn.calls().first)
            #expect(call.arguments == ["simctl", "push", "5B1F-UDID", "com.example.other", "-"])
            #expect(call.input == #"{"aps":{"badge":7}}"#)
        }
    }

    @Test func failingSimctl_Is502WithItsMessageAndStatus_AndJournaled() async throws {
        try await Self.withPushServer { server, standIn in
            try standIn.fail()
            let answer = try await server.admin("POST", "/__mockd/push", body: #"{"name": "new-message", "device": "no-such-device"}"#)
            #expect(answer.status == 502)
            #expect(answer.object["result"] as? String == "failed")
            #expect(answer.object["exitStatus"] as? Int == 149)
            #expect(answer.object["stderr"] as? String == "Invalid device: no-such-device\n")
            let journal = try await server.admin("GET", "/__mockd/requests?kind=push&status=502")
            #expect((journal.object["requests"] as? [Any])?.count == 1)
        }
    }

    @Test func afterMs_AnswersAtOnce_ThePushIsJournaledWhenItWent() async throws {
        try await Self.withPushServer { server, standIn in
            let answer = try await server.admin("POST", "/__mockd/push", body: #"{"name": "sync", "bundleId": "a.b", "afterMs": 300}"#)
            #expect(answer.status == 202)
            #expect(answer.object["result"] as? String == "scheduled")
            // The test waits as an XCUITest would: on the journal, not on a clock.
            let waited = try await server.admin("GET", "/__mockd/requests?kind=push&count=1&wait=20")
            #expect(waited.object["complete"] as? Bool == true)
            let entry = try #require((waited.object["requests"] as? [[String: Any]])?.first)
            #expect((entry["push"] as? [String: Any])?["result"] as? String == "sent")
            #expect(standIn.calls().first?.arguments == ["simctl", "push", "booted", "a.b", "-"])
        }
    }

    @Test func session_CarriesItsSimulator_AndItsScenariosPayload() async throws {
        try await Self.withPushServer { server, standIn in
            let opened = try await server.admin(
                "POST", "/__mockd/sessions",
                body: #"{"id": "clone-2", "scenario": "outage", "device": "UDID-2", "bundleId": "com.example.beta"}"#)
            #expect(opened.status == 201, "\(opened.object)")
            let answer = try await server.admin("POST", "/__mockd/push", body: #"{"name": "new-message", "session": "clone-2"}"#)
            #expect(answer.status == 201, "\(answer.object)")
            let call = try #require(standIn.calls().first)
            #expect(call.arguments == ["simctl", "push", "UDID-2", "com.example.beta", "-"])
            #expect(try (Self.json(call.input)["aps"] as? [String: Any])?["alert"] as? String == "Service is down")
            let journal = try await server.admin("GET", "/__mockd/requests?kind=push&session=clone-2&count=1&wait=5")
            #expect(journal.object["complete"] as? Bool == true)
            #expect((journal.object["requests"] as? [[String: Any]])?.first?["scenario"] as? String == "outage")
            _ = try await server.admin("DELETE", "/__mockd/sessions/clone-2")
        }
    }

    @Test func noSender_Is501SayingWhy() async throws {
        try await Self.withPushServer(pusher: false) { server, _ in
            let answer = try await server.admin("POST", "/__mockd/push", body: #"{"name": "new-message"}"#)
            #expect(answer.status == 501)
            #expect((answer.object["error"] as? String)?.contains("--push-command") == true, "\(answer.object)")
        }
    }

    @Test func commandThatCannotStart_Is502SayingWhy() async throws {
        try await withRouteServer(files: Self.files, pusher: CommandPusher(executable: "/nonexistent/xcrun")) { server in
            let answer = try await server.admin("POST", "/__mockd/push", body: #"{"name": "new-message"}"#)
            #expect(answer.status == 502)
            #expect((answer.object["error"] as? String)?.contains("could not start") == true, "\(answer.object)")
        }
    }

    @Test func routeThen_PushesToTheSessionsSimulatorAfterTheAnswer() async throws {
        try await Self.withPushServer { server, standIn in
            let opened = try await server.admin(
                "POST", "/__mockd/sessions", body: #"{"id": "clone-3", "device": "UDID-3", "bundleId": "com.example.app"}"#)
            #expect(opened.status == 201)
            let answer = try await server.request(
                "POST", "/api/chats/jane/messages", headers: ["X-Mock-Session": "clone-3", "Content-Type": "application/json"],
                body: Data(#"{"text": "lunch \"today\"?"}"#.utf8))
            #expect(answer.status == 201)
            #expect(answer.header("X-Mockd-Warning") == nil)
            let waited = try await server.admin("GET", "/__mockd/requests?session=clone-3&count=2&wait=20")
            #expect(waited.object["complete"] as? Bool == true)
            let entries = try #require(waited.object["requests"] as? [[String: Any]])
            #expect(entries.map { $0["kind"] as? String } == ["route", "push"], "the push follows the answer")
            #expect((entries.last?["source"] as? String)?.contains("route ") == true)
            let call = try #require(standIn.calls().first)
            #expect(call.arguments == ["simctl", "push", "UDID-3", "com.example.app", "-"])
            let alert = try (Self.json(call.input)["aps"] as? [String: Any])?["alert"] as? [String: Any]
            #expect(alert?["title"] as? String == "jane replied")
            #expect(alert?["body"] as? String == #"Re: lunch "today"?"#, "the request's values are escaped inside JSON strings")
        }
    }

    @Test func routeThen_WithoutAnApp_AnswersAndSaysWhyNoPushWent() async throws {
        try await Self.withPushServer { server, standIn in
            let answer = try await server.request("POST", "/api/chats/jane/messages", body: Data("{}".utf8))
            #expect(answer.status == 201)
            #expect(answer.header("X-Mockd-Warning")?.contains("no app to push to") == true, "\(answer.headers)")
            #expect(standIn.calls().isEmpty)
        }
    }

    @Test func stubThen_PushesLikeARoute() async throws {
        try await Self.withPushServer { server, standIn in
            let stub = try await server.admin(
                "POST", "/__mockd/stubs",
                body:
                    #"{"method": "POST", "path": "/api/ping", "response": {"status": 204, "then": {"push": "sync", "bundleId": "com.example.app"}}}"#
            )
            #expect(stub.status == 201, "\(stub.object)")
            #expect(try await server.request("POST", "/api/ping").status == 204)
            let waited = try await server.admin("GET", "/__mockd/requests?kind=push&count=1&wait=20")
            #expect(waited.object["complete"] as? Bool == true)
            #expect(standIn.calls().first?.arguments == ["simctl", "push", "booted", "com.example.app", "-"])
        }
    }

    @Test func dashboardSources_ListThePayloadsAndWhyNoneCanBeSent() async throws {
        try await Self.withPushServer(pusher: false) { server, _ in
            let sources = try await server.admin("GET", "/__mockd/sources")
            #expect(sources.object["pushes"] as? [String] == ["new-message", "reply", "sync"])
            #expect((sources.object["pushRefusal"] as? String)?.contains("xcrun") == true)
            let route = try await server.admin("GET", "/__mockd/source?origin=" + server.routes + "/chat.json%230")
            let then = ((route.object["responses"] as? [[String: Any]])?.first?["then"]) as? [String: Any]
            #expect(then?["push"] as? String == "reply", "\(route.object)")
            #expect(then?["afterMs"] as? Int == 200)
        }
    }

    // MARK: - the executable

    @Test func mockd_FindsXcrunOnPath_OrTakesPushCommand_OrRefuses501() async throws {
        let standIn = try StandIn()
        defer { standIn.folder.remove() }
        try await withTemporaryFolder(Self.files.mapKeys { "MockData/" + $0 }) { folder in
            let root = folder.child("MockData")
            let base = ["serve", "--root", root, "--port", "0", "--no-routes"]
            func push(_ arguments: [String], environment: [String: String]) async throws -> (Int, [String: Any]) {
                try await withMockdProcess(arguments, environment: environment, in: folder) { _, startup in
                    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(startup.port)/__mockd/push")!)
                    request.httpMethod = "POST"
                    request.httpBody = Data(#"{"name": "new-message"}"#.utf8)
                    let (data, response) = try await URLSession.shared.data(for: request)
                    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                    return (status, (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:])
                }
            }
            // A Mac has /usr/bin/xcrun: the refusal is asked for with a PATH of nothing but the
            // mock root's folder; the stand-in's own commands (cat, mv) need the usual folders.
            let bare = "/usr/bin:/bin"
            let refused = try await push(base, environment: ["PATH": root])
            #expect(refused.0 == 501, "\(refused.1)")
            #expect((refused.1["error"] as? String)?.contains("xcrun is not on PATH") == true)
            let onPath = try await push(base, environment: ["PATH": standIn.folder.path + ":" + bare])
            #expect(onPath.0 == 201, "\(onPath.1)")
            let given = try await push(base + ["--push-command", standIn.path], environment: ["PATH": bare])
            #expect(given.0 == 201, "\(given.1)")
            let variable = try await push(base, environment: ["PATH": bare, "MOCKD_PUSH_COMMAND": standIn.path])
            #expect(variable.0 == 201, "\(variable.1)")
            #expect(standIn.calls().count == 3)
        }
    }

    @Test func mockdPush_SendsByNameThroughTheAdminAPI() async throws {
        let standIn = try StandIn()
        defer { standIn.folder.remove() }
        try await withTemporaryFolder(Self.files.mapKeys { "MockData/" + $0 }) { folder in
            let arguments = ["serve", "--root", folder.child("MockData"), "--port", "0", "--no-routes", "--push-command", standIn.path]
            try await withMockdProcess(arguments, in: folder) { _, startup in
                let sent = try await runProcess(
                    CLITests.executable,
                    ["push", "sync", "--port", String(startup.port), "--bundle-id", "com.example.app", "--device", "UDID-7"])
                #expect(sent.status == 0, "\(sent)")
                #expect(sent.stdout.contains(#""result" : "sent""#) || sent.stdout.contains(#""result": "sent""#), "\(sent)")
                #expect(standIn.calls().first?.arguments == ["simctl", "push", "UDID-7", "com.example.app", "-"])
                let unknown = try await runProcess(CLITests.executable, ["push", "nope", "--port", String(startup.port)])
                #expect(unknown.status == 1)
                #expect(unknown.stderr.contains("HTTP 404"), "\(unknown)")
            }
        }
    }

    @Test func check_NamesAPayloadThatIsNotJSONWithItsPlace() async throws {
        try await withTemporaryFolder(["pushes/broken.apns": "{\n  \"aps\": {\"alert\": \"Hi\",}\n}\n"]) { folder in
            let result = try await runProcess(CLITests.executable, ["check", "--root", folder.path], currentDirectory: folder.path)
            #expect(result.status == 1, "\(result)")
            #expect((result.stdout + result.stderr).contains(folder.path + "/pushes/broken.apns: line 2, column "), "\(result)")
        }
    }
}

extension Dictionary where Key == String {
    fileprivate func mapKeys(_ transform: (String) -> String) -> [String: Value] {
        Dictionary(uniqueKeysWithValues: map { (transform($0.key), $0.value) })
    }
}
