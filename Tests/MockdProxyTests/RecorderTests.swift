import Foundation
import MockdCore
import MockdDisk
import MockdHTTP
@testable import MockdProxy
import MockdSystem
import Synchronization
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1)))
struct RecorderTests {
    /// `<tmp>/root` and `<tmp>/routes`, so anything written beside them shows up as a stray file.
    struct Workspace {
        let folder: TemporaryFolder
        var root: String { folder.path + "/root" }
        var routes: String { folder.path + "/routes" }

        init() throws {
            folder = try TemporaryFolder()
            try FileManager.default.createDirectory(atPath: folder.path + "/root", withIntermediateDirectories: true)
        }

        /// A recorder that finds existing mocks in a snapshot of the root as it is now (as the
        /// server's current snapshot after a reload).
        func recorder(overwrite: Bool = false) -> Recorder {
            let recorder = Recorder(root: root, routesDirectory: routes, overwrite: overwrite, logger: testLogger)
            let root = self.root
            recorder.findMocks(in: { MockDataLoader(files: DiskFiles(), root: root).load().snapshot })
            return recorder
        }

        func routeTable() throws -> [[String: Any]] {
            let data = try #require(FileManager.default.contents(atPath: routes + "/recorded.json"))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return try #require(object["routes"] as? [[String: Any]])
        }
    }

    static func json(_ body: String, status: Int = 200, headers: [HTTPHeader] = [HTTPHeader("Content-Type", "application/json")])
        -> BuiltResponse
    {
        BuiltResponse(status: status, headers: headers, body: Array(body.utf8), origin: .proxy(note: ""))
    }

    /// A compact and a pretty-printed answer are saved as the upstream sent them: same bytes,
    /// key order, number spellings, escapes and white space (no reformatting, no added newline).
    @Test func aJSONAnswerIsSavedByteForByte() throws {
        let space = try Workspace()
        defer { space.folder.remove() }
        let compact = #"{"z":1,"a":{"y":[1,2.50,"\u00e9",true],"b":null,"e":{},"f":[]},"m":-0.5e+3}"#
        let pretty = "{\r\n    \"z\" : 1,\r\n    \"list\" : [ 1.0, \"caf\u{e9}\" ]\r\n}\r\n\r\n"
        let recorder = space.recorder()

        #expect(
            recorder.record(MockRequest(method: "GET", path: "/api/users/"), Self.json(compact))
                == .wroteMock(space.root + "/mock_api_users_get.json"))
        #expect(
            recorder.record(
                MockRequest(method: "GET", path: "/api/pretty"),
                Self.json(pretty, headers: [HTTPHeader("Content-Type", "application/json; charset=utf-8")]))
                == .wroteMock(space.root + "/mock_api_pretty_get.json"))

        #expect(FileManager.default.contents(atPath: space.root + "/mock_api_users_get.json") == Data(compact.utf8))
        #expect(FileManager.default.contents(atPath: space.root + "/mock_api_pretty_get.json") == Data(pretty.utf8))
        #expect(space.folder.files() == ["root/mock_api_pretty_get.json", "root/mock_api_users_get.json"])
    }

    @Test func tellsItsOwnWritesApart() throws {
        let space = try Workspace()
        defer { space.folder.remove() }
        let recorder = space.recorder()
        #expect(recorder.record(MockRequest(method: "GET", path: "/a"), Self.json("{}")) == .wroteMock(space.root + "/mock_a_get.json"))
        #expect(recorder.record(MockRequest(method: "GET", path: "/b"), Self.json("{}", status: 404)) == .wroteRoute(0))
        #expect(recorder.isOwnWrite(space.root + "/mock_a_get.json"))
        #expect(recorder.isOwnWrite(space.routes + "/./recorded.json"))
        #expect(recorder.isOwnWrite(space.root + "/recorded/" + Recorder.bodyFileName(method: "GET", path: "/b", extension: "json")))
        #expect(recorder.isOwnWrite(space.root + "/.dat.nosync1A2B.x3y4z5"))
        #expect(!recorder.isOwnWrite(space.root + "/mock_c_get.json"))
        #expect(recorder.writtenFiles.count == 3)
    }

    /// mockd's default folders are relative (`MockData`, `routes`); the watcher asks with absolute paths.
    @Test func tellsItsOwnWritesApartUnderRelativeFolders() throws {
        let space = try Workspace()
        defer { space.folder.remove() }
        // The workspace as a path relative to the working folder, without changing it (tests run in parallel).
        let upToRoot = String(repeating: "../", count: FileManager.default.currentDirectoryPath.split(separator: "/").count)
        let root = upToRoot + space.root.dropFirst()
        let routes = upToRoot + space.routes.dropFirst()
        let recorder = Recorder(root: root, routesDirectory: routes, overwrite: false, logger: testLogger)
        #expect(recorder.record(MockRequest(method: "GET", path: "/a"), Self.json("{}")) == .wroteMock(root + "/mock_a_get.json"))
        #expect(recorder.record(MockRequest(method: "GET", path: "/b"), Self.json("{}", status: 404)) == .wroteRoute(0))
        #expect(recorder.isOwnWrite(space.root + "/mock_a_get.json"))
        #expect(recorder.isOwnWrite(space.routes + "/recorded.json"))
        #expect(recorder.isOwnWrite(space.root + "/recorded/" + Recorder.bodyFileName(method: "GET", path: "/b", extension: "json")))
        #expect(recorder.isOwnWrite(root + "/mock_a_get.json"))
        #expect(!recorder.isOwnWrite(space.root + "/mock_c_get.json"))
        #expect(recorder.writtenFiles.allSatisfy { $0.hasPrefix(space.folder.path + "/") })
    }

    /// The path helpers that replaced NSString's, checked against NSString where they must agree.
    @Test func pathTextAgreesWithNSString() {
        // Absolute paths under a folder that does not exist: standardizingPath resolves no links there.
        let absolute = [
            "/mockd-none//a/./b", "/mockd-none/a/../b", "/mockd-none/a/", "//mockd-none", "/..", "/", "/./a", "/a/b/c/../../d", "/a/./",
        ]
        for path in absolute {
            #expect(PathText.standardized(path) == (path as NSString).standardizingPath, "\(path)")
        }
        #expect(PathText.standardized("a//b/./c/") == "a/b/c")
        for path in ["/a/b", "/a", "/a/b/", "a/b", "/", "/a/.dat.nosync1A2B.x3y4z5"] {
            #expect(FilePath.folder(of: path) == (path as NSString).deletingLastPathComponent, "\(path)")
            #expect(PathText.lastComponent(path, .lastPathComponent) == (path as NSString).lastPathComponent, "\(path)")
        }
        #expect(FilePath.folder(of: "name.json") == ".")
        #expect(FilePath.folder(of: "a//b") == "a")
    }

    @Test func otherAnswersBecomeRoutesWithBodyFiles() throws {
        let space = try Workspace()
        defer { space.folder.remove() }
        let recorder = space.recorder()

        #expect(
            recorder.record(
                MockRequest(method: "GET", path: "/api/missing"),
                Self.json(
                    #"{"error":"not found"}"#, status: 404,
                    headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Date", "Mon, 01 Jan 2024 00:00:00 GMT")]))
                == .wroteRoute(0))
        #expect(
            recorder.record(
                MockRequest(method: "POST", path: "/old"),
                BuiltResponse(status: 302, headers: [HTTPHeader("Location", "https://example.com/new")], origin: .proxy(note: "")))
                == .wroteRoute(1)
        )
        #expect(
            recorder.record(
                MockRequest(method: "GET", path: "/hello"),
                BuiltResponse(
                    status: 200, headers: [HTTPHeader("Content-Type", "text/plain")], body: Array("hi there".utf8), origin: .proxy(note: "")
                ))
                == .wroteRoute(2))
        #expect(
            recorder.record(
                MockRequest(method: "POST", path: "/login"),
                Self.json(#"{"ok":true}"#, headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Set-Cookie", "sid=1")]))
                == .wroteRoute(3))
        #expect(
            recorder.record(
                MockRequest(method: "GET", path: "/users/:id"),
                BuiltResponse(status: 500, body: Array("boom".utf8), origin: .proxy(note: ""))) == .wroteRoute(4))

        let missingBody = "recorded/" + Recorder.bodyFileName(method: "GET", path: "/api/missing", extension: "json")
        let document = try #require(space.folder.read("routes/recorded.json"))
        #expect(
            document.hasPrefix(
                """
                {
                  "routes": [
                    {
                      "name": "recorded GET /api/missing",
                      "method": "GET",
                      "path": "/api/missing",
                      "response": {
                        "status": 404,
                        "headers": {
                          "Content-Type": "application/json"
                        },
                        "file": "\(missingBody)"
                      }
                    },
                    {
                      "name": "recorded POST /old",
                      "method": "POST",
                      "path": "/old",
                      "response": {
                        "status": 302,
                        "headers": {
                          "Location": "https://example.com/new"
                        }
                      }
                    },

                """))
        let routes = try space.routeTable()
        #expect(routes.count == 5)
        #expect(routes[2]["path"] as? String == "/hello")
        let hello = try #require(routes[2]["response"] as? [String: Any])
        #expect(hello["status"] as? Int == 200)
        #expect(hello["headers"] as? [String: String] == ["Content-Type": "text/plain"])
        let helloFile = try #require(hello["file"] as? String)
        #expect(space.folder.read("root/" + helloFile) == "hi there")
        #expect(space.folder.read("root/" + missingBody) == #"{"error":"not found"}"#)
        #expect(
            (routes[3]["response"] as? [String: Any])?["headers"] as? [String: String] == [
                "Content-Type": "application/json", "Set-Cookie": "sid=1",
            ])
        // A path a route would read as a pattern is recorded as an exact regular expression.
        #expect(routes[4]["pathPattern"] as? String == "^/users/:id$")
        #expect(routes[4]["path"] == nil)
        // A body is saved under its type's extension (.body when it has none).
        #expect(helloFile.hasSuffix(".txt"))
        #expect(((routes[4]["response"] as? [String: Any])?["file"] as? String)?.hasSuffix(".body") == true)
        // Body files never look like mock names and stay in recorded/.
        for file in space.folder.files() where file.hasPrefix("root/") {
            #expect(file.hasPrefix("root/recorded/"))
            #expect(MockFileName.parse((file as NSString).lastPathComponent) == .other)
        }
    }

    @Test func neverOverwritesAnExistingMockUnlessAsked() throws {
        let space = try Workspace()
        defer { space.folder.remove() }
        try space.folder.write("root/users/mock_api_users_get.json", "[\"kept\"]\n")
        let handWritten = """
            {"comment": "mine", "routes": [{"method": ["GET", "HEAD"], "path": "/api/gone/", "response": {"status": 410}}]}
            """
        try space.folder.write("routes/recorded.json", handWritten)
        let kept = space.recorder()

        #expect(
            kept.record(MockRequest(method: "GET", path: "/api/users"), Self.json(#"["new"]"#))
                == .keptExisting(space.root + "/users/mock_api_users_get.json"))
        #expect(
            kept.record(MockRequest(method: "GET", path: "/api/gone"), Self.json("{}", status: 404))
                == .keptExisting(space.routes + "/recorded.json#0"))
        #expect(kept.record(MockRequest(method: "GET", path: "/api/users/"), Self.json("{}", status: 500)) == .duplicate(2))
        // A route for a request that has a mock file would shadow the file: kept too.
        #expect(
            space.recorder().record(MockRequest(method: "GET", path: "/api/users"), Self.json("{}", status: 500))
                == .keptExisting(space.root + "/users/mock_api_users_get.json"))
        #expect(space.folder.read("root/users/mock_api_users_get.json") == "[\"kept\"]\n")
        #expect(space.folder.read("routes/recorded.json") == handWritten)
        #expect(space.folder.files() == ["root/users/mock_api_users_get.json", "routes/recorded.json"])

        let replacing = space.recorder(overwrite: true)
        #expect(
            replacing.record(MockRequest(method: "GET", path: "/api/users"), Self.json(#"["new"]"#))
                == .wroteMock(space.root + "/users/mock_api_users_get.json"))
        #expect(space.folder.read("root/users/mock_api_users_get.json") == "[\"new\"]")
        #expect(replacing.record(MockRequest(method: "GET", path: "/api/gone"), Self.json("{}", status: 404)) == .wroteRoute(0))
        let document = try #require(space.folder.read("routes/recorded.json"))
        // The rest of the hand-written file keeps its members and their order.
        #expect(document.hasPrefix("{\n  \"comment\": \"mine\",\n  \"routes\": [\n"))
        let routes = try space.routeTable()
        #expect(routes.count == 1)
        #expect((routes[0]["response"] as? [String: Any])?["status"] as? Int == 404)
        // Overwriting a route with a 200 JSON answer writes the file and drops the route that would shadow it.
        #expect(replacing.record(MockRequest(method: "GET", path: "/api/gone"), Self.json(#"{"back":1}"#)) == .duplicate(2))
        let fresh = space.recorder(overwrite: true)
        #expect(
            fresh.record(MockRequest(method: "GET", path: "/api/gone"), Self.json(#"{"back":1}"#))
                == .wroteMock(space.root + "/mock_api_gone_get.json"))
        #expect(try space.routeTable().isEmpty)
    }

    /// The loader follows links to folders; so does the search for an existing mock.
    @Test func findsAnExistingMockInALinkedFolder() throws {
        let space = try Workspace()
        defer { space.folder.remove() }
        try space.folder.write("shared/users/mock_api_users_get.json", "[\"kept\"]\n")
        #expect(symlink(space.folder.path + "/shared", space.root + "/linked") == 0)
        // A cycle that leads to no mock: the search must still end.
        try FileManager.default.createDirectory(atPath: space.root + "/cycle", withIntermediateDirectories: true)
        #expect(symlink(".", space.root + "/cycle/again") == 0)
        #expect(MockDataLoader(files: DiskFiles(), root: space.root).load().snapshot?.fileCount == 1)

        #expect(
            space.recorder().record(MockRequest(method: "GET", path: "/api/users"), Self.json(#"["new"]"#))
                == .keptExisting(space.root + "/linked/users/mock_api_users_get.json"))
        #expect(
            space.recorder(overwrite: true).record(MockRequest(method: "GET", path: "/api/users"), Self.json(#"["new"]"#))
                == .wroteMock(space.root + "/linked/users/mock_api_users_get.json"))
        #expect(space.folder.read("shared/users/mock_api_users_get.json") == "[\"new\"]")
    }

    @Test func countsDuplicatesInsteadOfWritingTwice() throws {
        let space = try Workspace()
        defer { space.folder.remove() }
        let recorder = space.recorder(overwrite: true)
        let request = MockRequest(method: "GET", path: "/api/items", query: [("page", "1")], rawQuery: "page=1")

        #expect(recorder.record(request, Self.json(#"{"page":1}"#)) == .wroteMock(space.root + "/mock_api_items_get.json"))
        // The same request again is a duplicate; another query is another request, recorded as a
        // route matching that query once a plain mock exists (RecorderTests+Decisions.swift).
        #expect(recorder.record(request, Self.json("{}", status: 404)) == .duplicate(2))
        #expect(recorder.record(request, Self.json("{}", status: 404)) == .duplicate(3))
        #expect(
            recorder.record(MockRequest(method: "POST", path: "/api/items"), Self.json(#"{"made":1}"#))
                == .wroteMock(space.root + "/mock_api_items_post.json"))
        #expect(space.folder.read("root/mock_api_items_get.json") == #"{"page":1}"#)
    }

    @Test func skipsWhatIsNotAnAnswer() throws {
        let space = try Workspace()
        defer { space.folder.remove() }
        let recorder = space.recorder()
        let skipped: [(MockRequest, BuiltResponse)] = [
            (MockRequest(method: "HEAD", path: "/x"), Self.json("{}")),
            (MockRequest(method: "GET", path: "/x"), BuiltResponse(status: 304, origin: .proxy(note: ""))),
            (MockRequest(method: "GET", path: "/x"), BuiltResponse(status: 206, body: [1], origin: .proxy(note: ""))),
        ]
        for (request, response) in skipped {
            guard case .skipped = recorder.record(request, response) else {
                Issue.record("\(request.method) \(response.status) was not skipped")
                continue
            }
        }
        // mockd's own answer to a failed forward is told by the outcome's failure, whatever its
        // label: a 200 with an upstream-looking source is still not recorded.
        let failed = ProxyOutcome(
            response: BuiltResponse.json(status: 200, "{}", origin: .proxy(note: "")), upstreamDuration: .zero,
            failure: ProxyFailure(.unreachable, reason: "refused"))
        #expect(
            recorder.record(MockRequest(method: "GET", path: "/x"), failed)
                == .skipped("not an upstream answer (502 from mockd: upstream unreachable)"))
        #expect(space.folder.files().isEmpty)
        // Skipping does not count: the next real answer is recorded.
        #expect(recorder.record(MockRequest(method: "GET", path: "/x"), Self.json("{}")) == .wroteMock(space.root + "/mock_x_get.json"))
    }

    @Test func requestPathsCannotLeadOutsideTheRootOrTheRoutesFolder() throws {
        let space = try Workspace()
        defer { space.folder.remove() }
        let recorder = space.recorder()
        let paths = [
            "/../../etc/passwd", "/..", "/../x/..", "/a/../../../../tmp/evil", "/./.", "/nul\0byte",
            "/" + String(repeating: "long/", count: 60), "/back\\slash/..\\..", "/.hidden", "/mock_x_get.json/..",
        ]
        for (index, path) in paths.enumerated() {
            let json = recorder.record(MockRequest(method: "GET", path: path), Self.json(#"{"i":\#(index)}"#))
            let text = recorder.record(
                MockRequest(method: "PUT", path: path), BuiltResponse(status: 400, body: Array("no".utf8), origin: .proxy(note: "")))
            guard case .wroteRoute = text else { Issue.record("PUT \(path): \(text)"); continue }
            switch json {
            case .wroteMock(let file):
                #expect((file as NSString).deletingLastPathComponent == space.root, "\(path) → \(file)")
            case .wroteRoute:
                break
            default:
                Issue.record("GET \(path): \(json)")
            }
        }
        for file in space.folder.files() {
            #expect(
                file == "routes/recorded.json" || (file.hasPrefix("root/") && !file.dropFirst(5).contains("/"))
                    || (file.hasPrefix("root/recorded/") && !file.dropFirst(14).contains("/")), "stray file \(file)")
        }
        // The long path's name would pass 255 bytes: recorded as a route instead of a mock file.
        let routes = try space.routeTable()
        #expect(routes.contains { ($0["path"] as? String)?.hasPrefix("/long/long/") == true && $0["method"] as? String == "GET" })
        // Everything written loads.
        let loaded = MockDataLoader(files: DiskFiles(), root: space.root).load()
        #expect(loaded.snapshot != nil, "\(loaded.diagnostics)")
    }

    @Test func writesAtomically() throws {
        let space = try Workspace()
        defer { space.folder.remove() }
        let recorder = space.recorder()
        #expect(recorder.record(MockRequest(method: "GET", path: "/first"), Self.json("{}", status: 404)) == .wroteRoute(0))
        let routesFile = space.routes + "/recorded.json"
        let firstInode = try #require(try FileManager.default.attributesOfItem(atPath: routesFile)[.systemFileNumber] as? UInt64)

        // A reader that parses recorded.json over and over while 100 routes are added must never see a partial file.
        let stop = Atomic<Bool>(false)
        let reads = Atomic<Int>(0)
        let badReads = Atomic<Int>(0)
        let readerDone = DispatchSemaphore(value: 0)
        Thread {
            while !stop.load(ordering: .acquiring) {
                guard let data = FileManager.default.contents(atPath: routesFile) else { badReads.add(1, ordering: .relaxed); continue }
                if (try? JSONSerialization.jsonObject(with: data)) == nil { badReads.add(1, ordering: .relaxed) }
                reads.add(1, ordering: .relaxed)
            }
            readerDone.signal()
        }.start()
        for index in 1...100 {
            let outcome = recorder.record(
                MockRequest(method: "GET", path: "/item/\(index)"),
                BuiltResponse(status: 404, body: Array("missing \(index)".utf8), origin: .proxy(note: "")))
            #expect(outcome == .wroteRoute(index))
        }
        stop.store(true, ordering: .releasing)
        #expect(readerDone.wait(timeout: .now() + 10) == .success)
        #expect(badReads.load(ordering: .relaxed) == 0)
        #expect(reads.load(ordering: .relaxed) > 0)
        #expect(try space.routeTable().count == 101)
        // Rewritten by rename, not in place: a new inode.
        let lastInode = try #require(try FileManager.default.attributesOfItem(atPath: routesFile)[.systemFileNumber] as? UInt64)
        #expect(lastInode != firstInode)
        // No temp files left behind.
        #expect(!space.folder.files().contains { ($0 as NSString).lastPathComponent.hasPrefix(".") })
    }

    @Test func aBrokenRecordedJSONIsLeftAlone() throws {
        let space = try Workspace()
        defer { space.folder.remove() }
        try space.folder.write("routes/recorded.json", "{\"routes\": [ oops")
        let outcome = space.recorder().record(MockRequest(method: "GET", path: "/x"), Self.json("{}", status: 404))
        guard case .failed(let why) = outcome else { Issue.record("expected a failure, got \(outcome)"); return }
        #expect(why.contains("recorded.json"))
        #expect(space.folder.read("routes/recorded.json") == "{\"routes\": [ oops")
    }

    @Test func aFailedWriteSaysWhyInTheSystemsWords() throws {
        let space = try Workspace()
        defer { space.folder.remove() }
        try space.folder.write("file", "not a folder")
        let recorder = Recorder(root: space.root, routesDirectory: space.folder.path + "/file/routes", overwrite: false, logger: testLogger)
        let outcome = recorder.record(MockRequest(method: "GET", path: "/x"), Self.json("{}", status: 404))
        #expect(outcome == .failed(space.folder.path + "/file/routes/recorded.json: " + String(cString: strerror(ENOTDIR))))
    }

    @Test func aRecordedMockIsServedByteForByte() async throws {
        let upstreamData = try TemporaryFolder()
        defer { upstreamData.remove() }
        let original = #"{"zeta":"last letter","alpha":[1,2.0,3e2],"nested":{"b":true,"a":null},"text":"caf\u00e9 \"quoted\""}"#
        try upstreamData.write("mock_api_menu_get.json", original)
        try await withServer(root: upstreamData.path, configure: { $0.threads = 1 }, logger: testLogger) { upstream in
            var configuration = try ProxyConfiguration(upstream: "http://127.0.0.1:\(upstream.port)")
            configuration.timeout = eventDeadline
            let proxy = UpstreamProxy(configuration: configuration, logger: testLogger)
            defer { proxy.shutdown() }

            let space = try Workspace()
            defer { space.folder.remove() }
            let request = MockRequest(method: "GET", path: "/api/menu")
            let outcome = await proxy.forward(request)
            #expect(outcome.fromUpstream)
            #expect(space.recorder().record(request, outcome.response) == .wroteMock(space.root + "/mock_api_menu_get.json"))

            let written = try #require(FileManager.default.contents(atPath: space.root + "/mock_api_menu_get.json"))
            // Same JSON as the upstream's, keys in the upstream's order.
            // (`JSONValue ==` ignores member order: compare the compact forms, which keep it.)
            #expect(try JSONParser.parse(Array(written)).serialized == JSONParser.parse(original).serialized)
            // And the very bytes the upstream sent.
            #expect(Array(written) == Array(original.utf8))
            let snapshot = try #require(MockDataLoader(files: DiskFiles(), root: space.root).load().snapshot)
            #expect(snapshot.files["mock_api_menu_get.json"]?.response.body.array == Array(written))

            // And a mockd on the recorded root serves those bytes.
            try await withServer(root: space.root, configure: { $0.threads = 1 }, logger: testLogger) { recorded in
                var back = try ProxyConfiguration(upstream: "http://127.0.0.1:\(recorded.port)")
                back.timeout = eventDeadline
                let client = UpstreamProxy(configuration: back, logger: testLogger)
                defer { client.shutdown() }
                let served = await client.forward(request)
                #expect(served.response.status == 200)
                #expect(served.response.body == Array(written))
            }
        }
    }
}

extension RecorderTests {
    @Test func aHandWrittenRecordedJSONKeepsEveryRouteMemberAndNumber() throws {
        let space = try Workspace()
        defer { space.folder.remove() }
        let handWritten = #"""
            {"z": 1.50, "routes": [{"path": "/caf\u00e9\/x", "method": "GET", "response": {"status": 200, "json": {"b": 1e3, "a": [0.10, "\"q\""]}}}], "a": true}
            """#
        try space.folder.write("routes/recorded.json", handWritten)
        #expect(space.recorder().record(MockRequest(method: "GET", path: "/new"), Self.json("{}", status: 404)) == .wroteRoute(1))

        let written = try JSONParser.parse(#require(space.folder.read("routes/recorded.json")))
        guard case .object(let members) = written, case .array(let routes)? = written["routes"] else {
            Issue.record("not a route table: \(written)"); return
        }
        #expect(members.map(\.key) == ["z", "routes", "a"])
        #expect(written["z"] == .number("1.50"))
        let original = try JSONParser.parse(handWritten)
        // The hand-written route, member order and numbers as written (compact forms compared: `==` ignores order).
        #expect(routes.count == 2)
        #expect(
            routes[0].serialized
                == original["routes"].map { value -> String in
                    guard case .array(let list) = value else { return "" }
                    return list[0].serialized
                })
        #expect(routes[0].serialized.contains(#""b":1e3,"a":[0.10,"#))
    }
}
