import Foundation
import MockdCore
import MockdLock
import Synchronization
import Testing

/// Push payloads as the core loads them (`pushes/<name>.apns`, scenario overlays, templates) and
/// the pushes `POST /__mockd/push` orders: which payload, simulator and app, and what it answers
/// with what the push command said. No process runs here: the order is what is checked.
@Suite("Pushes")
struct PushTests {
    static let files: [String: String] = [
        "mock_api_users_get.json": "[]",
        "pushes/new-message.apns": #"""
        {"Simulator Target Bundle": "com.example.app", "aps": {"alert": {"title": "New message", "body": "from {{uuid}}"}}, "sentAt": "{{now}}"}
        """#,
        "pushes/sync.apns": #"{"aps": {"content-available": 1}}"#,
        "scenarios/outage/pushes/new-message.apns": #"{"aps": {"alert": "Service is down"}}"#,
    ]

    /// A snapshot of `files`, the runtime state, and the orders the pushes it is asked for give.
    struct Harness {
        let snapshot: Snapshot
        let state = RuntimeState()
        let journal = RequestJournal()
        var pushRefusal: String?
        var pushBundleID: String?
        var outcome = PushOutcome(ending: .exited(0))
        let orders = Orders()

        init(_ files: [String: String] = PushTests.files) throws {
            let folder = MemoryFolder(files)
            let loaded = MockDataLoader(files: folder.files, root: folder.path).load()
            snapshot = try #require(loaded.snapshot, "\(loaded.diagnostics)")
        }

        func call(_ method: String, _ path: String, _ body: String) -> (status: Int, json: [String: Any]) {
            let request = MockRequest.make(method: method, path: path, body: Array(body.utf8))
            let context = AdminAPI.Context(
                snapshot: snapshot, state: state, journal: journal, uptimeSeconds: 1, sessionPorts: [], pushRefusal: pushRefusal,
                pushBundleID: pushBundleID)
            var next = AdminAPI.call(for: request).answer(context)
            while true {
                switch next {
                case .answer(let response):
                    let json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
                    return (response.status, json)
                case .push(let order, let then):
                    orders.append(order)
                    next = then(order.afterMilliseconds > 0 ? .scheduled : .done(outcome))
                case .openSessionPort(let id, let then):
                    next = then(.success(SessionPort(id: id ?? "s1", port: 50_000, baseURL: "http://127.0.0.1:50000")))
                default:
                    Issue.record("unexpected effect \(next)")
                    return (0, [:])
                }
            }
        }

        func push(_ body: String) -> (status: Int, json: [String: Any]) { call("POST", "/__mockd/push", body) }

        var lastOrder: PushOrder? { orders.last }
        var lastPayload: [String: Any] {
            lastOrder.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.payload))) as? [String: Any] } ?? [:]
        }
    }

    /// The orders a harness's pushes gave, in order.
    final class Orders: Sendable {
        private let all = Lock<[PushOrder]>([])
        func append(_ order: PushOrder) { all.withLock { $0.append(order) } }
        var last: PushOrder? { all.withLock { $0.last } }
    }

    // MARK: - loading

    @Test func payloadFiles_AreLoadedWithTheirScenarioOverlays() throws {
        let harness = try Harness()
        let pushes = harness.snapshot.pushes
        #expect(pushes.names == ["new-message", "sync"])
        #expect(pushes.payload("new-message", scenario: "default")?.relativePath == "pushes/new-message.apns")
        #expect(pushes.payload("new-message", scenario: "outage")?.relativePath == "scenarios/outage/pushes/new-message.apns")
        #expect(pushes.payload("sync", scenario: "outage")?.relativePath == "pushes/sync.apns")
        #expect(pushes.payload("new-message", scenario: "default")?.bundleID == "com.example.app")
        #expect(harness.snapshot.scenarios.contains("outage"), "a scenario that only has pushes is known")
        #expect(harness.snapshot.fileCount == 1, "payloads are not mock files")
    }

    @Test func payloadThatIsNotJSON_IsAConfigurationErrorWithItsPlace() {
        let folder = MemoryFolder(["pushes/broken.apns": "{\n  \"aps\": {\"alert\": \"Hi\",}\n}"])
        let loaded = MockDataLoader(files: folder.files, root: folder.path).load()
        #expect(loaded.snapshot == nil)
        let error = loaded.diagnostics.first { $0.severity == .error }
        #expect(error?.file == "/memory/pushes/broken.apns")
        #expect(error?.location?.contains("line 2") == true, "\(String(describing: error))")
        #expect(error?.message.hasPrefix("invalid JSON") == true)
    }

    @Test func payloadThatIsNoObject_IsAConfigurationError() {
        let folder = MemoryFolder(["scenarios/x/pushes/list.apns": "[1, 2]"])
        let loaded = MockDataLoader(files: folder.files, root: folder.path).load()
        #expect(loaded.snapshot == nil)
        #expect(loaded.diagnostics.first?.place.contains("scenarios/x/pushes/list.apns: a push payload is a JSON object") == true)
    }

    @Test func apnsFilesElsewhere_AreNotPayloads() throws {
        let harness = try Harness(["pushes/deeper/a.apns": "not json", "other/b.apns": "{}", "mock_x_get.json": "{}"])
        #expect(harness.snapshot.pushes.isEmpty)
    }

    // MARK: - POST /__mockd/push

    @Test func byName_GoesToTheBootedSimulatorAndThePayloadsApp_TemplatesFilled() throws {
        let harness = try Harness()
        let answer = harness.push(#"{"name": "new-message"}"#)
        #expect(answer.status == 201)
        #expect(answer.json["result"] as? String == "sent")
        #expect(answer.json["exitStatus"] as? Int == 0)
        let order = try #require(harness.lastOrder)
        #expect(order.simctlArguments == ["simctl", "push", "booted", "com.example.app", "-"])
        let alert = (harness.lastPayload["aps"] as? [String: Any])?["alert"] as? [String: Any]
        let body = try #require(alert?["body"] as? String)
        #expect(body.hasPrefix("from ") && UUID(uuidString: String(body.dropFirst(5))) != nil, "\(body)")
        #expect((harness.lastPayload["sentAt"] as? String)?.hasSuffix("Z") == true)
    }

    @Test func byName_ReadsTheOverlayOfTheSessionsScenario() throws {
        let harness = try Harness()
        harness.state.setScenario("outage", session: "sim-2")
        _ = harness.push(#"{"name": "new-message", "session": "sim-2", "bundleId": "com.example.app"}"#)
        #expect((harness.lastPayload["aps"] as? [String: Any])?["alert"] as? String == "Service is down")
        #expect(harness.lastOrder?.session == "sim-2")
        _ = harness.push(#"{"name": "new-message"}"#)
        #expect(((harness.lastPayload["aps"] as? [String: Any])?["alert"] as? [String: Any])?["title"] as? String == "New message")
    }

    @Test func givenPayload_IsSentAsGiven() throws {
        var harness = try Harness()
        harness.pushBundleID = "com.example.default"
        let answer = harness.push(#"{"payload": {"aps": {"badge": 3}}, "device": "9A1B-UDID"}"#)
        #expect(answer.status == 201)
        #expect(harness.lastOrder?.simctlArguments == ["simctl", "push", "9A1B-UDID", "com.example.default", "-"])
        #expect(String(decoding: harness.lastOrder?.payload ?? [], as: UTF8.self) == #"{"aps":{"badge":3}}"#)
        #expect(answer.json["name"] is NSNull)
    }

    @Test func session_CarriesItsSimulatorAndApp() throws {
        let harness = try Harness()
        let opened = harness.call("POST", "/__mockd/sessions", #"{"id": "clone-2", "device": "UDID-2", "bundleId": "com.example.beta"}"#)
        #expect(opened.status == 201)
        #expect(opened.json["device"] as? String == "UDID-2")
        _ = harness.push(#"{"name": "sync", "session": "clone-2"}"#)
        #expect(harness.lastOrder?.simctlArguments == ["simctl", "push", "UDID-2", "com.example.beta", "-"])
        _ = harness.push(#"{"name": "new-message", "session": "clone-2", "device": "booted"}"#)
        #expect(harness.lastOrder?.simctlArguments == ["simctl", "push", "booted", "com.example.beta", "-"], "the call wins")
    }

    @Test func failingCommand_Is502WithItsMessageAndStatus() throws {
        var harness = try Harness()
        harness.outcome = PushOutcome(ending: .exited(149), standardError: "Invalid device: nope\n")
        let answer = harness.push(#"{"name": "new-message", "device": "nope"}"#)
        #expect(answer.status == 502)
        #expect(answer.json["result"] as? String == "failed")
        #expect(answer.json["exitStatus"] as? Int == 149)
        #expect(answer.json["stderr"] as? String == "Invalid device: nope\n")
    }

    @Test func afterMs_IsScheduledAndAnswered202() throws {
        let harness = try Harness()
        let answer = harness.push(#"{"name": "sync", "afterMs": 800, "bundleId": "a.b"}"#)
        #expect(answer.status == 202)
        #expect(answer.json["result"] as? String == "scheduled")
        #expect(harness.lastOrder?.afterMilliseconds == 800)
    }

    @Test func noSender_Is501SayingWhy() throws {
        var harness = try Harness()
        harness.pushRefusal = "no push command: xcrun is not on PATH"
        let answer = harness.push(#"{"name": "new-message"}"#)
        #expect(answer.status == 501)
        #expect(answer.json["error"] as? String == "no push command: xcrun is not on PATH")
        #expect(harness.lastOrder == nil)
    }

    @Test(
        "refusals",
        arguments: [
            (#"{"nme": "new-message"}"#, 400, #"unknown key "nme"; did you mean "name"?"#),
            (#"{"name": "nope"}"#, 404, #"no push payload "nope""#),
            (#"{"name": "sync"}"#, 400, "no app to push to"),
            (#"{"name": "sync", "bundleId": "-x"}"#, 400, #""bundleId" must not start with '-'"#),
            (#"{"name": "new-message", "payload": {}}"#, 400, "not both"),
            (#"{"payload": [1]}"#, 400, #""payload" must be a JSON object"#),
            (#"{"name": "new-message", "afterMs": -1}"#, 400, #""afterMs" must be a whole number"#),
            (#"{}"#, 400, "say what to push"),
            ("not json", 400, "expected a JSON body"),
        ])
    func refusals(body: String, status: Int, message: String) throws {
        let harness = try Harness()
        let answer = harness.push(body)
        #expect(answer.status == status)
        #expect((answer.json["error"] as? String)?.contains(message) == true, "\(answer.json)")
        #expect(harness.lastOrder == nil)
    }

    // MARK: - the journal

    @Test func journalEntry_IsOfKindPushAndSelectedByKind() throws {
        let harness = try Harness()
        let order = PushOrder(name: "sync", device: "booted", bundleID: "a.b", payload: Array(#"{"aps":{}}"#.utf8), session: "s")
        harness.journal.append(
            order.entry(
                PushOutcome(ending: .exited(0), standardOutput: "ok\n"), time: 1_700_000_000, durationMicroseconds: 10, bodyLimit: 100))
        harness.journal.append(
            RequestJournal.Entry(
                time: 1, method: "GET", path: "/x", query: "", headers: [], body: [], bodyTruncated: false, scenario: "default",
                session: nil, source: "404", kind: .notFound, status: 404, durationMicroseconds: 1))
        let listed = harness.call("GET", "/__mockd/requests", "")
        #expect((listed.json["requests"] as? [Any])?.count == 2)
        let request = MockRequest(
            method: "GET", path: "/__mockd/requests", query: [("kind", "push"), ("count", "1")], headers: hostForAdmin("/__mockd"), body: []
        )
        let context = AdminAPI.Context(snapshot: harness.snapshot, state: harness.state, journal: harness.journal, uptimeSeconds: 1)
        let response = try #require(AdminAPI.call(for: request).answer(context).answer)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let entries = try #require(json["requests"] as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(json["complete"] as? Bool == true)
        #expect(entries.first?["kind"] as? String == "push")
        #expect(entries.first?["status"] as? Int == 201)
        #expect(entries.first?["session"] as? String == "s")
        let push = try #require(entries.first?["push"] as? [String: Any])
        #expect(push["name"] as? String == "sync")
        #expect(push["device"] as? String == "booted")
        #expect(push["bundleId"] as? String == "a.b")
        #expect(push["result"] as? String == "sent")
        #expect(push["stdout"] as? String == "ok\n")
    }

    // MARK: - a route's "then"

    static let chat = routeTable(
        #"{"method": "POST", "path": "/api/chats/:name/messages", "response": {"status": 201, "then": {"push": "new-message", "afterMs": 800, "device": "UDID-9"}}}"#
    )

    @Test func routeThen_AnswersThenOrdersThePush() throws {
        let snapshot = try loadRoutes(files: Self.files, tables: ["chat.json": Self.chat])
        let request = MockRequest.make(method: "POST", path: "/api/chats/jane/messages", session: "s1")
        let resolution = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(request)
        guard case .thenPush(let answer, let order) = resolution, case .respond(let reply) = answer else {
            Issue.record("expected an answer then a push, found \(resolution)")
            return
        }
        #expect(reply.status == 201)
        #expect(order.simctlArguments == ["simctl", "push", "UDID-9", "com.example.app", "-"])
        #expect(order.afterMilliseconds == 800)
        #expect(order.session == "s1")
        #expect(order.trigger.hasPrefix("route ") && order.trigger.hasSuffix("routes/chat.json#0"), "\(order.trigger)")
    }

    @Test func routeThen_NamingNoPayload_IsAConfigurationError() throws {
        let table = routeTable(#"{"method": "POST", "path": "/x", "response": {"then": {"push": "nope"}}}"#)
        try withRouteFixture(files: Self.files, tables: ["chat.json": table]) { fixture in
            let loaded = fixture.load()
            #expect(loaded.snapshot == nil)
            let error = loaded.diagnostics.first { $0.severity == .error }
            #expect(error?.location == "routes[0].response.then.push", "\(loaded.diagnostics)")
            #expect(error?.message.contains(#"no push payload "nope""#) == true)
        }
    }

    @Test func routeThen_BadShape_IsNamedWithItsPlace() throws {
        let table = routeTable(
            #"{"method": "POST", "path": "/x", "response": {"then": {"push": "sync", "afterMs": "soon", "devise": "x"}}}"#)
        try withRouteFixture(files: Self.files, tables: ["chat.json": table]) { fixture in
            let places = fixture.load().diagnostics.map(\.place).joined(separator: "\n")
            #expect(places.contains("routes[0].response.then.afterMs"), "\(places)")
            #expect(places.contains("devise"), "\(places)")
        }
    }
}
