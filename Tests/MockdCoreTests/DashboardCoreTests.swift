import Foundation
@testable import MockdCore
import Testing

/// The pure parts of the dashboard's API: journal numbering, what a long poll
/// waits for, and which mock files may be created where.
@Suite("Dashboard core")
struct DashboardCoreTests {
    @Test func journalNumbersGrowInRingOrderAndSurviveAClear() {
        let journal = RequestJournal(capacity: 3)
        #expect(journal.lastID == 0)
        for index in 1...5 { journal.append(AdminAPITests.entry("/\(index)")) }
        #expect(journal.lastID == 5)
        #expect(journal.numberedEntries().map(\.id) == [3, 4, 5])
        #expect(journal.entries(after: 3, limit: 10).map(\.entry.path) == ["/4", "/5"])
        #expect(journal.entries(after: 0, limit: 2).map(\.id) == [4, 5], "the newest, when more came than the limit")
        #expect(journal.entries(after: 5, limit: 10).isEmpty)
        journal.clear()
        journal.append(AdminAPITests.entry("/6"))
        #expect(journal.numberedEntries().map(\.id) == [6], "a dashboard that saw 5 sees 6 after a clear")
    }

    @Test func concurrentAppendsAreNumberedWithoutGapsOrRepeats() {
        let journal = RequestJournal(capacity: 1000)
        DispatchQueue.concurrentPerform(iterations: 500) { index in journal.append(AdminAPITests.entry("/\(index)")) }
        #expect(journal.numberedEntries().map(\.id) == Array(1...500))
    }

    @Test func aLongPollHasNewsForANewEntryOrAStateChange() {
        let journal = RequestJournal()
        let runtime = RuntimeState()
        let state = runtime.changes
        #expect(!AdminAPI.hasNews(after: 0, state: state, journal: journal, runtime: runtime))
        journal.append(AdminAPITests.entry("/1"))
        #expect(AdminAPI.hasNews(after: 0, state: state, journal: journal, runtime: runtime))
        #expect(!AdminAPI.hasNews(after: 1, state: state, journal: journal, runtime: runtime))
        runtime.setScenario("empty")
        #expect(AdminAPI.hasNews(after: 1, state: state, journal: journal, runtime: runtime))
        #expect(!AdminAPI.hasNews(after: 1, state: nil, journal: journal, runtime: runtime), "no state given: entries only")
        let set = runtime.changes
        runtime.reset()
        #expect(runtime.changes > set)
    }

    @Test func eventsWaitOnlyWithAnAfter() {
        #expect(AdminAPI.call(for: .make(path: "/__mockd/events")).work == .now)
        #expect(
            AdminAPI.call(
                for: MockRequest(
                    method: "GET", path: "/__mockd/events", query: [("after", "7"), ("state", "2"), ("wait", "90")],
                    headers: hostForAdmin("/__mockd/events"))
            ).work
                == .waitForNews(after: 7, state: 2, wait: .seconds(60)))
        #expect(
            AdminAPI.call(
                for: MockRequest(method: "GET", path: "/__mockd/events", query: [("after", "x")], headers: hostForAdmin("/__mockd/events"))
            ).work == .now,
            "answered at once with a 400")
        #expect(AdminAPI.call(for: .make(path: "/__mockd/sources")).work == .now)
    }

    /// A dashboard's one long poll carries the WebSocket messages apart from the requests, and the
    /// open connections as the adapter lists them.
    @Test func eventsCarryMessagesApartAndTheOpenConnections() throws {
        try withSnapshot(["mock_api_users_get.json": "[]"]) { snapshot, _ in
            let journal = RequestJournal()
            journal.append(AdminAPITests.entry("/api/users"))
            journal.append(
                RequestJournal.Entry(
                    time: 1_700_000_000.5, method: "GET", path: "/ws/chat", query: "", headers: [], body: Array("hi".utf8),
                    bodyTruncated: false, scenario: "", session: "sim-3", source: "websocket 7 in", kind: .message, status: 0,
                    durationMicroseconds: 0, message: RequestJournal.Message(direction: "in", connection: 7, binary: false, size: 2)))
            let open = WebSocketConnectionInfo(
                id: 7, session: "sim-3", path: "/ws/chat", opened: "2023-11-14T22:13:20.000Z", messagesIn: 1, messagesOut: 0)
            let context = AdminAPI.Context(
                snapshot: snapshot, state: RuntimeState(), journal: journal, uptimeSeconds: 0, openWebSockets: { [open] })
            let answer = try #require(AdminAPI.call(for: .make(path: "/__mockd/events")).answer(context).answer)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
            let requests = try #require(object["requests"] as? [[String: Any]])
            #expect(requests.map { $0["path"] as? String } == ["/api/users"])
            let messages = try #require(object["messages"] as? [[String: Any]])
            #expect(messages.count == 1)
            #expect(messages.first?["id"] as? Int == 2)
            #expect(messages.first?["direction"] as? String == "in")
            #expect(messages.first?["text"] as? String == "hi")
            #expect(messages.first?["connection"] as? Int == 7)
            let connections = try #require(object["webSockets"] as? [[String: Any]])
            #expect(connections.map { $0["id"] as? Int } == [7])
            #expect(connections.first?["session"] as? String == "sim-3")
            #expect(connections.first?["messagesIn"] as? Int == 1)
            #expect(object["next"] as? Int == 2)
        }
    }

    /// Writing a file and reloading are effects the core names, in order, for the adapter to
    /// carry out off its threads; the core itself touches no file.
    @Test func aNewMockIsAWriteThenAReloadNamedForTheAdapter() throws {
        try withSnapshot(["mock_api_users_get.json": "[]"]) { snapshot, _ in
            let context = AdminAPI.Context(
                snapshot: snapshot, state: RuntimeState(), journal: RequestJournal(), uptimeSeconds: 0, writesMocks: true)
            let body = Array(#"{"method": "GET", "path": "/api/new", "body": "{}"}"#.utf8)
            let step = AdminAPI.call(for: .make(method: "POST", path: "/__mockd/mocks", body: body)).answer(context)
            guard case .writeMockFile(let relativePath, let bytes, let then) = step else {
                Issue.record("a new mock is not written as an effect: \(step)")
                return
            }
            #expect(relativePath == "mock_api_new_get.json")
            #expect(bytes == Array("{}\n".utf8), "the body as sent, with a final newline")
            guard case .reload(let trigger, let answer) = then(.written) else {
                Issue.record("a written mock is not reloaded")
                return
            }
            #expect(trigger == "admin")
            #expect(answer(.unavailable(trigger: "admin")).answer?.status == 201)
            #expect(then(.exists).answer?.status == 409, "never over a file that appeared meanwhile")
            guard case .reload = AdminAPI.call(for: .make(method: "POST", path: "/__mockd/reload")).answer(context) else {
                Issue.record("a reload is not an effect")
                return
            }
        }
    }

    /// A stub whose body names a file asks the adapter for the files first (the core reads no
    /// disk, and the request's thread must not either); one without a file is added at once.
    @Test func aStubWithABodyFileAsksForTheFilesFirst() throws {
        try withSnapshot(["bodies/profile.json": #"{"name": "Ada"}"#]) { snapshot, root in
            let state = RuntimeState()
            let context = AdminAPI.Context(snapshot: snapshot, state: state, journal: RequestJournal(), uptimeSeconds: 0)
            let plain = Array(#"{"method": "GET", "path": "/api/plain", "response": {"text": "x"}}"#.utf8)
            #expect(AdminAPI.call(for: .make(method: "POST", path: "/__mockd/stubs", body: plain)).answer(context).answer?.status == 201)
            let withFile = Array(#"{"method": "GET", "path": "/api/profile", "response": {"file": "bodies/profile.json"}}"#.utf8)
            let step = AdminAPI.call(for: .make(method: "POST", path: "/__mockd/stubs", body: withFile)).answer(context)
            guard case .readFiles(let then) = step else {
                Issue.record("a stub's body file was not asked for: \(step)")
                return
            }
            #expect(state.stubs.all().count == 1, "not added before its file is read")
            let files = MemoryFiles([root.path + "/bodies/profile.json": #"{"name": "Ada"}"#])
            #expect(then(files).answer?.status == 201)
            #expect(state.stubs.all().count == 2)
        }
    }

    @Test(arguments: [
        ("/api/feed", nil as String?), ("/", nil), ("/api/users/", nil), ("/a b/ü", nil),
        ("api/feed", "must start with '/'"), ("/api/../x", "'..'"), ("/api/./x", "'..'"), ("/..", "'..'"),
        ("/a\\b", "NUL or '\\'"), ("/" + String(repeating: "x", count: 201), "longer than 200"),
    ])
    func pathsThatCanNameAFile(path: String, problem: String?) {
        let found = MockCreation.pathProblem(path)
        if let problem { #expect(found?.contains(problem) == true, "\(path): \(found ?? "nil")") } else { #expect(found == nil, "\(path)") }
    }

    @Test(arguments: [
        ("empty", true), ("error-500", true), ("v1.2", true), ("../x", false), ("a/b", false), (".hidden", false), ("", false),
    ])
    func scenarioFolders(name: String, allowed: Bool) {
        #expect((MockCreation.scenarioProblem(name) == nil) == allowed, "\(name)")
    }
}
