import Foundation
import MockdCore
import MockdDisk
@testable import MockdProxy
import Testing
import TestSupport

/// HAR files in the shapes Proxyman, Charles, Chrome and Safari export (Tests/Fixtures/har),
/// imported into a scratch root and routes folder.
@Suite(.timeLimit(.minutes(1)))
struct HARImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/har")

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(name + ".har")))
    }

    static func run(
        _ fixture: String, in space: RecorderTests.Workspace, force: Bool = false, scenario: String? = nil,
        dryRun: Bool = false, _ configure: (inout HARImport.Options) -> Void = { _ in }
    ) throws -> HARImport.Report {
        var options = HARImport.Options()
        configure(&options)
        let recorder = Recorder(root: space.root, routesDirectory: space.routes, overwrite: force, scenario: scenario, logger: testLogger)
        return try HARImport(recorder: recorder, options: options).run(try Self.fixture(fixture), dryRun: dryRun)
    }

    /// Proxyman: the last answer to GET /api/users wins, its bytes as captured; a gzip answer's
    /// decoded text; a base64 PNG decoded into a .png body; a 201 with Location and Set-Cookie a route.
    @Test func proxymanExportBecomesFilesAndRoutes() throws {
        let space = try RecorderTests.Workspace()
        defer { space.folder.remove() }
        let report = try Self.run("proxyman", in: space)
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.hosts == ["api.example.com"])
        #expect(
            space.folder.read("root/mock_api_users_get.json") == #"{"users":[{"id":1,"name":"Ada"},{"id":2,"name":"Grace","score":1.50}]}"#)
        // Without --query one mock answers every page: the last one captured.
        #expect(space.folder.read("root/mock_api_feed_get.json") == #"{"page":2,"items":["c"]}"#)
        let routes = try space.routeTable()
        let avatar = try #require(routes.first { $0["path"] as? String == "/api/users/42/avatar" })
        let avatarResponse = try #require(avatar["response"] as? [String: Any])
        let avatarFile = try #require(avatarResponse["file"] as? String)
        #expect(avatarFile.hasSuffix(".png"))
        let png = try #require(FileManager.default.contents(atPath: space.root + "/" + avatarFile))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(avatarResponse["headers"] as? [String: String] == ["Content-Type": "image/png", "Cache-Control": "max-age=60"])
        let login = try #require(routes.first { $0["path"] as? String == "/api/login" })
        let loginResponse = try #require(login["response"] as? [String: Any])
        #expect(loginResponse["status"] as? Int == 201)
        #expect((loginResponse["headers"] as? [String: String])?["Location"] == "/api/me")
        #expect((loginResponse["headers"] as? [String: String])?["Set-Cookie"] == "sid=abc; Path=/; HttpOnly")
        #expect(routes.count == 2)
    }

    /// `--sequence`: every answer to a request, in order, as a `responses` sequence.
    @Test func sequenceKeepsEveryAnswerInOrder() throws {
        let space = try RecorderTests.Workspace()
        defer { space.folder.remove() }
        let report = try Self.run("proxyman", in: space) { $0.sequence = true }
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(!FileManager.default.fileExists(atPath: space.root + "/mock_api_users_get.json"))
        let users = try #require(try space.routeTable().first { $0["path"] as? String == "/api/users" })
        #expect(users["response"] == nil)
        let answers = try #require(users["responses"] as? [[String: Any]])
        #expect(answers.count == 2)
        let files = answers.compactMap { $0["file"] as? String }
        #expect(files.count == 2 && files[0] != files[1])
        #expect(space.folder.read("root/" + files[0]) == "{\n  \"users\": [\n    {\"id\": 1, \"name\": \"Ada\"}\n  ]\n}")
        #expect(space.folder.read("root/" + files[1])?.hasPrefix(#"{"users":[{"id":1"#) == true)
    }

    /// `--query`: the first query string makes the plain file, the next a route matching its query.
    @Test func queryKeepsOnePerQueryString() throws {
        let space = try RecorderTests.Workspace()
        defer { space.folder.remove() }
        let report = try Self.run("proxyman", in: space) { $0.query = true }
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(space.folder.read("root/mock_api_feed_get.json") == #"{"page":1,"items":["a","b"]}"#)
        let page2 = try #require(try space.routeTable().first { $0["path"] as? String == "/api/feed" })
        #expect(page2["match"] as? [String: [String: String]] == ["query": ["page": "2"]])
    }

    /// Charles: base64 JSON bodies decoded into a mock file, an empty 204, an HTML 404 as .html,
    /// and the second host's entry counted, not imported, until `--host` names it.
    @Test func charlesExportAndOtherHosts() throws {
        let space = try RecorderTests.Workspace()
        defer { space.folder.remove() }
        let report = try Self.run("charles", in: space)
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(space.folder.read("root/mock_api_settings_get.json") == #"{"theme":"light","beta":false}"#)
        #expect(report.otherHosts.map(\.host) == ["cdn.example.com"] && report.otherHosts.map(\.entries) == [1])
        let routes = try space.routeTable()
        let deleted = try #require(routes.first { $0["method"] as? String == "DELETE" })
        #expect(deleted["response"] as? [String: Int] == ["status": 204])
        let missing = try #require(routes.first { $0["path"] as? String == "/api/missing" }?["response"] as? [String: Any])
        #expect((missing["file"] as? String)?.hasSuffix(".html") == true)
        #expect(!routes.contains { $0["path"] as? String == "/logo.svg" })

        let cdn = try RecorderTests.Workspace()
        defer { cdn.folder.remove() }
        let only = try Self.run("charles", in: cdn) { $0.hosts = ["cdn.example.com"] }
        #expect(only.hosts == ["cdn.example.com"])
        let logo = try #require(try cdn.routeTable().first { $0["path"] as? String == "/logo.svg" }?["response"] as? [String: Any])
        #expect((logo["file"] as? String)?.hasSuffix(".svg") == true)
    }

    /// Chrome: lower-case HTTP/2 headers; ETag, X- and rate-limit headers keep a 200 JSON answer
    /// a route with them (Date never), its brotli coding said in its name; a blocked request
    /// (status 0) skipped without being an error; a body left out is an empty one.
    @Test func chromeExportKeepsTheHeadersTheAppReads() throws {
        let space = try RecorderTests.Workspace()
        defer { space.folder.remove() }
        let report = try Self.run("chrome", in: space) { $0.query = true }
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.skipped.count == 1 && report.skipped[0].contains("status 0"), "\(report.skipped)")
        let routes = try space.routeTable()
        let profile = try #require(routes.first { $0["path"] as? String == "/api/profile" })
        #expect(profile["name"] as? String == "recorded GET /api/profile (br undone)")
        let headers = try #require((profile["response"] as? [String: Any])?["headers"] as? [String: String])
        #expect(headers == ["content-type": "application/json", "etag": "W/\"42\"", "x-request-id": "r-1", "x-ratelimit-remaining": "99"])
        let note = try #require(routes.first { $0["path"] as? String == "/api/notes/7" }?["response"] as? [String: Any])
        #expect(note["file"] == nil)
        // The first query string of a path makes its plain file.
        #expect(space.folder.read("root/mock_api_search_get.json") == #"{"results":[]}"#)
    }

    /// Safari: a 301 with Location and no body; a HEAD is answered from the GET mock, not imported.
    @Test func safariExport() throws {
        let space = try RecorderTests.Workspace()
        defer { space.folder.remove() }
        let report = try Self.run("safari", in: space)
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(space.folder.read("root/mock_api_home_get.json") == #"{"home":true}"#)
        #expect(report.skipped.contains { $0.contains("HEAD") }, "\(report.skipped)")
        let redirect = try #require(
            try space.routeTable().first { $0["path"] as? String == "/api/old-home" }?["response"] as? [String: Any])
        #expect(redirect["status"] as? Int == 301)
        #expect((redirect["headers"] as? [String: String])?["Location"] == "https://api.example.com/api/home")
    }

    /// Broken entries are named by index and URL, and the rest is imported.
    @Test func brokenEntriesAreNamedAndTheRestImported() throws {
        let space = try RecorderTests.Workspace()
        defer { space.folder.remove() }
        let report = try Self.run("broken", in: space)
        #expect(report.errors.count == 3, "\(report.errors)")
        #expect(report.errors.contains("entry 1 (https://api.example.com/api/no-response): no response"), "\(report.errors)")
        #expect(
            report.errors.contains("entry 2 (https://api.example.com/api/bad-base64): content.text is not valid base64"), "\(report.errors)"
        )
        #expect(report.errors.contains("entry 3: request.url is missing"), "\(report.errors)")
        #expect(space.folder.read("root/mock_api_ok_get.json") == #"{"ok":true}"#)
        #expect(space.folder.read("root/mock_api_ok-too_get.json") == #"{"ok":2}"#)
    }

    @Test func notJSONAndNotHARAreRefusedWhole() throws {
        let space = try RecorderTests.Workspace()
        defer { space.folder.remove() }
        let recorder = Recorder(root: space.root, routesDirectory: space.routes, overwrite: false, logger: testLogger)
        let importer = HARImport(recorder: recorder, options: HARImport.Options())
        #expect(throws: HARImport.Unreadable.self) { try importer.run(Array("<html>".utf8), dryRun: false) }
        do {
            _ = try importer.run(Array(#"{"entries": []}"#.utf8), dryRun: false)
            Issue.record("a JSON object without log was imported")
        } catch {
            #expect(error.description.hasPrefix("not a HAR file"), "\(error)")
        }
        // A byte order mark is allowed.
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"log": {"entries": []}}"#.utf8)
        #expect(try importer.run(bom, dryRun: false).errors.isEmpty)
        #expect(space.folder.files().isEmpty)
    }

    /// Existing mocks are kept unless forced; a dry run writes nothing; a scenario gets its folder.
    @Test func keepsExistingMocksUnlessForcedAndDryRunWritesNothing() throws {
        let space = try RecorderTests.Workspace()
        defer { space.folder.remove() }
        try space.folder.write("root/mock_api_home_get.json", #"{"mine":true}"#)
        let dry = try Self.run("safari", in: space, dryRun: true)
        #expect(dry.kept == 1 && dry.written == 1, "\(dry)")
        #expect(space.folder.files() == ["root/mock_api_home_get.json"])
        #expect(dry.files.count == 1 && dry.files[0].hasSuffix("/recorded.json"), "\(dry.files)")

        let kept = try Self.run("safari", in: space)
        #expect(kept.kept == 1)
        #expect(space.folder.read("root/mock_api_home_get.json") == #"{"mine":true}"#)
        let forced = try Self.run("safari", in: space, force: true)
        #expect(forced.kept == 0 && forced.written == 2, "\(forced)")
        #expect(space.folder.read("root/mock_api_home_get.json") == #"{"home":true}"#)
        #expect(try space.routeTable().count == 1)

        let scenario = try Self.run("safari", in: space, scenario: "offline")
        #expect(scenario.errors.isEmpty)
        #expect(space.folder.read("root/scenarios/offline/mock_api_home_get.json") == #"{"home":true}"#)
        let routes = try space.routeTable()
        #expect(routes.count == 2 && routes[1]["scenario"] as? String == "offline")

        // A scenario's route body never replaces the base route's.
        let base = try Self.run("proxyman", in: space)
        let offline = try Self.run("proxyman", in: space, scenario: "offline")
        #expect(base.errors.isEmpty && offline.errors.isEmpty)
        let avatars = try space.routeTable().filter { $0["path"] as? String == "/api/users/42/avatar" }
            .compactMap { ($0["response"] as? [String: Any])?["file"] as? String }
        #expect(avatars.count == 2 && Set(avatars).count == 2, "\(avatars)")
    }

    // MARK: - WebSocket

    /// The `.ws` file Chrome's capture of `wss://live.example.com/ws/scores` becomes: the
    /// subprotocol the 101 chose, the server's messages as sends timed by their gaps (the first
    /// from the upgrade's startedDateTime), the app's as expectations; JSON as `json`, other text
    /// as `text`, binary as `base64`; `{{` in text sent as written.
    static let capturedScores = """
        {"subprotocols":["scores.v1"]}
        {"send":{"json":{"type":"hello","server":"live-1"}},"afterMs":50}
        {"expect":{"json":{"type":"subscribe","match":42}}}
        {"send":{"json":{"type":"score","home":1,"away":0}},"afterMs":120}
        {"send":{"json":{"type":"score","home":2,"away":0}},"afterMs":200}
        {"expect":{"text":"ping"}}
        {"send":{"text":"pong"},"afterMs":10}
        {"send":{"base64":"AAECAw=="},"afterMs":190}
        {"expect":{"base64":"BAUG"}}
        {"send":{"text":"full time {{=<% %>=}}{{home}}-{{away}}"},"afterMs":20}

        """

    /// Chrome: a WebSocket entry (status 101, `_webSocketMessages`) becomes
    /// `mock_<path>_get.ws`, the last of the path's two connections, beside the HTTP entry's
    /// mock; the file loads as a conversation of nine steps.
    @Test func chromeWebSocketEntryBecomesAConversationFile() throws {
        let space = try RecorderTests.Workspace()
        defer { space.folder.remove() }
        let report = try Self.run("chrome-websocket", in: space)
        #expect(report.errors.isEmpty && report.skipped.isEmpty, "\(report)")
        #expect(report.hosts == ["live.example.com"])
        #expect(report.written == 2 && report.kept == 0, "\(report)")
        #expect(
            report.lines.contains(
                "GET /ws/scores (WebSocket, 9 messages; the last of 2 connections) → wrote \(space.root)/mock_ws_scores_get.ws"),
            "\(report.lines)")
        #expect(space.folder.read("root/mock_api_matches_get.json") == #"{"matches":[{"id":42}]}"#)
        #expect(space.folder.read("root/mock_ws_scores_get.ws") == Self.capturedScores)

        let loaded = MockDataLoader(files: DiskFiles(), root: space.root).load()
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let script = try #require(loaded.snapshot?.files["mock_ws_scores_get.json"]?.response.conversation?.script)
        #expect(script.subprotocols == ["scores.v1"])
        #expect(script.steps.count == 9)

        // Again: kept; forced: replaced in place; as a scenario's: in its folder.
        let again = try Self.run("chrome-websocket", in: space)
        #expect(again.written == 0 && again.kept == 2, "\(again)")
        try space.folder.write("root/mock_ws_scores_get.ws", #"{"send": {"text": "mine"}}"#)
        let forced = try Self.run("chrome-websocket", in: space, force: true)
        #expect(forced.written == 2 && forced.errors.isEmpty, "\(forced)")
        #expect(space.folder.read("root/mock_ws_scores_get.ws") == Self.capturedScores)
        let scenario = try Self.run("chrome-websocket", in: space, scenario: "second-half")
        #expect(scenario.written == 2, "\(scenario)")
        #expect(space.folder.read("root/scenarios/second-half/mock_ws_scores_get.ws") == Self.capturedScores)
    }

    /// A HAR built here, entry by entry: broken messages are named by entry and place, an upgrade
    /// without messages (another browser's export) and a failed one are skipped, and a `.json`
    /// mock answering the same GET is never shadowed by a `.ws` beside it, even when forced.
    @Test func webSocketEntriesThatCannotBeWrittenAreNamed() throws {
        let space = try RecorderTests.Workspace()
        defer { space.folder.remove() }
        func entry(_ path: String, status: Int = 101, messages: String? = "[]", method: String = "GET") -> String {
            #"{"startedDateTime": "2026-12-07T10:00:00+01:00", "_resourceType": "websocket", "request": {"method": "\#(method)", "url": "ws://127.0.0.1:9000\#(path)"}, "response": {"status": \#(status), "headers": []}"#
                + (messages.map { #", "_webSocketMessages": \#($0)"# } ?? "") + "}"
        }
        let entries = [
            entry("/bad-opcode", messages: #"[{"type": "receive", "time": 1796634000.5, "opcode": 3, "data": "x"}]"#),
            entry("/bad-type", messages: #"[{"type": "sent", "time": 1796634000.5, "opcode": 1, "data": "x"}]"#),
            entry(
                "/bad-base64",
                messages:
                    #"[{"type": "send", "time": 1, "opcode": 1, "data": "a"}, {"type": "receive", "time": 2, "opcode": 2, "data": "!"}]"#),
            entry("/no-time", messages: #"[{"type": "receive", "opcode": 1, "data": "x"}]"#),
            entry("/firefox", messages: nil),
            entry("/refused", status: 0),
            entry("/post", method: "POST"),
            entry(
                "/taken",
                messages:
                    #"[{"type": "receive", "time": 1796634000.25, "opcode": 1, "data": "hi"}, {"type": "receive", "time": 1796634000.5, "opcode": 9, "data": ""}]"#
            ),
        ]
        let har = Array(#"{"log": {"entries": [\#(entries.joined(separator: ", "))]}}"#.utf8)
        try space.folder.write("root/mock_taken_get.json", #"{"mine":true}"#)
        for force in [false, true] {
            let recorder = Recorder(root: space.root, routesDirectory: space.routes, overwrite: force, logger: testLogger)
            let report = try HARImport(recorder: recorder, options: HARImport.Options()).run(har, dryRun: false)
            #expect(
                report.errors == [
                    "entry 0 (ws://127.0.0.1:9000/bad-opcode): _webSocketMessages[0].opcode: 3 is not a message's (1 text, 2 binary)",
                    #"entry 1 (ws://127.0.0.1:9000/bad-type): _webSocketMessages[0].type: "sent" is neither "send" (the app's) nor "receive" (the server's)"#,
                    "entry 2 (ws://127.0.0.1:9000/bad-base64): _webSocketMessages[1].data is not valid base64 (opcode 2 is a binary message)",
                    "entry 3 (ws://127.0.0.1:9000/no-time): _webSocketMessages[0].time is missing",
                    "entry 6 (ws://127.0.0.1:9000/post): a WebSocket upgrade is a GET; this 101 answered POST",
                ], "\(report.errors)")
            #expect(report.skipped.count == (force ? 3 : 2), "\(report.skipped)")
            #expect(report.skipped.first { $0.hasPrefix("entry 4 ") }?.contains("without _webSocketMessages") == true, "\(report.skipped)")
            #expect(report.skipped.first { $0.hasPrefix("entry 5 ") }?.contains("status 0") == true, "\(report.skipped)")
            if force {
                #expect(
                    report.skipped.last
                        == "GET /taken (WebSocket, 1 message): \(space.root)/mock_taken_get.json answers GET /taken too; remove it to import the conversation as mock_taken_get.ws"
                )
            } else {
                #expect(report.kept == 1, "\(report)")
            }
            #expect(space.folder.files() == ["root/mock_taken_get.json"])
        }
    }

    /// Text holding `{{` switches the template delimiters before its first `{{`, to a pair it
    /// does not hold; other text is as it came.
    @Test func textWithBracesIsSentAsWritten() {
        #expect(WebSocketTranscript.literal("no braces { }") == "no braces { }")
        #expect(WebSocketTranscript.literal("\n{{a}} <% b %>") == "\n{{=<%% %%>=}}{{a}} <% b %>")
        var transcript = WebSocketTranscript(subprotocol: nil, openedNanoseconds: 0)
        transcript.append(.init(fromApp: false, message: .text(#"{"say":"{{hi}}"}"#), nanoseconds: 0))
        transcript.append(.init(fromApp: true, message: .text(#"{"say":"{{hi}}"}"#), nanoseconds: 0))
        transcript.append(.init(fromApp: false, message: .text("42"), nanoseconds: 0))
        #expect(
            transcript.fileText == """
                {"send":{"text":"{\\"say\\":\\"{{=<% %>=}}{{hi}}\\"}"}}
                {"expect":{"json":{"say":"{{hi}}"}}}
                {"send":{"text":"42"}}

                """)
    }

    /// startedDateTime as HAR exporters write it, to the millisecond, with an offset or none.
    @Test func startedDateTimeIsReadAsSecondsSince1970() {
        #expect(HARImport.secondsSince1970("2026-12-07T10:00:00.000Z") == 1_796_637_600)
        #expect(HARImport.secondsSince1970("2026-12-07T11:00:00.250+01:00") == 1_796_637_600.25)
        #expect(HARImport.secondsSince1970("1970-01-01T00:00:00Z") == 0)
        #expect(HARImport.secondsSince1970("2024-02-29T23:59:59.5-0130") == 1_709_256_599.5)
        #expect(HARImport.secondsSince1970("2026-12-07") == nil)
        #expect(HARImport.secondsSince1970("2026-13-07T10:00:00Z") == nil)
        #expect(HARImport.secondsSince1970("2026-12-07T10:00:00Zjunk") == nil)
    }
}
