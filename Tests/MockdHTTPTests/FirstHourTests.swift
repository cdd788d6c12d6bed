import Foundation
import Testing
import TestSupport

/// What a new user met in the first hour with mockd, as a real `mockd` process sees it.
@Suite(.timeLimit(.minutes(2)))
struct FirstHourTests {
    static let greeting = routeTable(#"{"method": "GET", "path": "/api/greeting", "response": {"text": "hi"}}"#)

    /// Starts `mockd arguments…` in the folder `directory`, reads the startup line, runs `body`, always kills it.
    static func withMockd<T>(
        _ arguments: [String], in directory: String, environment: [String: String] = [:],
        _ body: (ChildProcess, CLITests.Startup) async throws -> T
    ) async throws -> T {
        let child = try ChildProcess(
            executable: CLITests.executable, arguments: arguments, environment: environment,
            currentDirectory: directory, stderrPath: directory + "/mockd-\(UUID().uuidString).stderr")
        defer { child.stop() }
        let line = try await blocking { try child.readLine() }
        let match = try #require(
            line.wholeMatch(of: CLITests.startupLine), "unexpected startup line: \(line.debugDescription); stderr: \(child.stderrText())")
        return try await body(child, CLITests.Startup(line: line, port: Int(match.1)!, files: Int(match.2)!))
    }

    static func send(_ method: String = "GET", port: Int, _ target: String, headers: [(String, String)] = []) async throws -> RawResponse {
        try await blocking { try RawConnection.exchange(port: port, method, target, headers: headers) }
    }

    // MARK: - 2. The routes folder beside the root

    @Test func routes_DefaultToTheFolderBesideTheRootNotTheWorkingDirectorys() async throws {
        try await withTemporaryFolder([
            "app/MockData/mock_api_users_get.json": "{}",
            "app/routes/a.json": Self.greeting,
            // Someone else's routes where mockd is started: neither loaded nor a reason to refuse.
            "elsewhere/routes/broken.json": "{not json",
        ]) { folder async throws in
            try await Self.withMockd(["--root", folder.child("app/MockData"), "--port", "0"], in: folder.child("elsewhere")) {
                mockd, startup async throws in
                #expect(startup.line.contains("1 route,"), "\(startup.line)")
                #expect(try await Self.send(port: startup.port, "/api/greeting").text == "hi")
                let line = "info routes from the folder beside the root mockd.routesFolder=\(folder.child("app/routes"))\n"
                #expect(try await mockd.stderrEventually(contains: line), "stderr: \(mockd.stderrText())")
            }
        }
    }

    @Test func routes_FromTheWorkingDirectoryWhenNoneIsBesideTheRoot() async throws {
        try await withTemporaryFolder(["app/MockData/mock_api_users_get.json": "{}", "work/routes/a.json": Self.greeting]) {
            folder async throws in
            try await Self.withMockd(["--root", folder.child("app/MockData"), "--port", "0"], in: folder.child("work")) {
                mockd, startup async throws in
                #expect(try await Self.send(port: startup.port, "/api/greeting").text == "hi")
                let line = "info routes from the working directory's folder mockd.routesFolder=routes\n"
                #expect(try await mockd.stderrEventually(contains: line), "stderr: \(mockd.stderrText())")
            }
        }
    }

    @Test func routes_NoneFoundSaysWhereItLookedAndAReloadPicksUpOneMadeLater() async throws {
        try await withTemporaryFolder(["app/MockData/mock_api_users_get.json": "{}", "work/readme.txt": "x"]) { folder async throws in
            try await Self.withMockd(["--root", folder.child("app/MockData"), "--port", "0", "--no-watch"], in: folder.child("work")) {
                mockd, startup async throws in
                let beside = folder.child("app/routes")
                let line =
                    "info no routes folder: create one for route tables (a reload picks it up) or give --routes DIR "
                    + "mockd.create=\(beside) mockd.lookedFor=\(beside) routes\n"
                #expect(try await mockd.stderrEventually(contains: line), "stderr: \(mockd.stderrText())")
                #expect(try await Self.send(port: startup.port, "/api/greeting").status == 404)
                try folder.write("app/routes/a.json", Self.greeting)
                let reload = try await Self.send("POST", port: startup.port, "/__mockd/reload")
                #expect(reload.status == 200, "\(reload.text)")
                #expect(try await Self.send(port: startup.port, "/api/greeting").text == "hi")
            }
        }
    }

    @Test func routes_MadeAfterStartAreSeenByTheWatcher() async throws {
        try await withTemporaryFolder(["app/MockData/mock_api_users_get.json": "{}", "work/readme.txt": "x"]) { folder async throws in
            try await Self.withMockd(["--root", folder.child("app/MockData"), "--port", "0"], in: folder.child("work")) {
                mockd, startup async throws in
                #expect(try await mockd.stderrEventually(contains: "watching for changes"), "stderr: \(mockd.stderrText())")
                try folder.write("app/routes/a.json", Self.greeting)
                let reloaded = try await ReloadTests.poll(port: startup.port, "/api/greeting") { $0.status == 200 }
                #expect(reloaded.text == "hi", "stderr: \(mockd.stderrText())")
            }
        }
    }
}

extension FirstHourTests {
    // MARK: - 3. A misspelt scenario

    @Test func scenario_AnUnknownStartupScenarioIsRefusedListingTheKnownOnes() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder async throws in
            let result = try await runProcess(
                CLITests.executable, ["--root", folder.path, "--port", "0", "--scenario", "emtpy"], currentDirectory: folder.path)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains(#"--scenario emtpy: unknown scenario "emtpy"; known: default, empty"#), "\(result)")
            #expect(!result.stdout.contains("listening"), "\(result)")
        }
    }

    @Test func scenario_AnUnknownHeaderIsAnsweredAsBeforeWithAWarningHeaderAndALogLine() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder async throws in
            try await Self.withMockd(["--root", folder.path, "--port", "0"], in: folder.path) { mockd, startup async throws in
                let plain = try await Self.send(port: startup.port, "/api/users")
                let misspelt = try await Self.send(port: startup.port, "/api/users", headers: [("X-Mock-Scenario", "emtpy")])
                #expect(misspelt.status == 200)
                #expect(misspelt.body == plain.body)
                #expect(misspelt.header("X-Mockd-Source") == plain.header("X-Mockd-Source"))
                #expect(misspelt.headers.filter { $0.name.lowercased() == "x-mockd-source" }.count == 1, "\(misspelt)")
                #expect(
                    misspelt.header("X-Mockd-Warning")?.hasPrefix(#"unknown scenario "emtpy"; known: default, empty"#) == true,
                    "\(misspelt)")
                #expect(plain.header("X-Mockd-Warning") == nil)
                // A known one gets no warning; a miss in an unknown one still gets the header.
                #expect(
                    try await Self.send(port: startup.port, "/api/users", headers: [("X-Mock-Scenario", "empty")]).header("X-Mockd-Warning")
                        == nil)
                let miss = try await Self.send(port: startup.port, "/api/nothing", headers: [("X-Mock-Scenario", "emtpy")])
                #expect(miss.status == 404)
                #expect(miss.header("X-Mockd-Warning") != nil)
                let line =
                    "info answered with a warning (X-Mockd-Warning) mockd.method=GET mockd.path=/api/users "
                    + #"mockd.warning=unknown scenario "emtpy""#
                #expect(try await mockd.stderrEventually(contains: line), "stderr: \(mockd.stderrText())")
            }
        }
    }
}

extension FirstHourTests {
    // MARK: - 10. check: strict by default, --no-strict for warnings only

    @Test func check_NoStrictPassesOnWarningsAloneButNotOnErrors() async throws {
        try await withTemporaryFolder(["mock_api_users_get.json": "[]", "mock_api_users_GET.json": "[]"]) { folder async throws in
            let strict = try await runProcess(CLITests.executable, ["check", "--root", folder.path], currentDirectory: folder.path)
            #expect(strict.status == 1, "\(strict)")
            #expect(strict.stdout.contains(": 1 file, 0 routes, 0 errors, 1 warning\n"), "\(strict)")
            #expect(strict.stdout.contains("--no-strict"), "\(strict)")
            let lenient = try await runProcess(
                CLITests.executable, ["check", "--no-strict", "--root", folder.path], currentDirectory: folder.path)
            #expect(lenient.status == 0, "\(lenient)")
            #expect(lenient.stdout.contains("warning: " + folder.path + "/mock_api_users_GET.json"), "\(lenient)")
        }
        try await withTemporaryFolder(["mock_api_users_get.json": "[oops"]) { folder async throws in
            let broken = try await runProcess(
                CLITests.executable, ["check", "--no-strict", "--root", folder.path], currentDirectory: folder.path)
            #expect(broken.status == 1, "\(broken)")
            #expect(broken.stdout.contains(": 1 error, 0 warnings"), "\(broken)")
        }
    }
}

extension FirstHourTests {
    // MARK: - 4. What answered, fully said

    @Test func source_IsTheRelativePathAndTheAccessLineSaysScenarioSessionAndQuery() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder async throws in
            try await Self.withMockd(["--root", folder.path, "--port", "0"], in: folder.path) { mockd, startup async throws in
                let overlay = try await Self.send(
                    port: startup.port, "/api/users?page=2", headers: [("X-Mock-Scenario", "empty"), ("X-Mock-Session", "sim-3")])
                #expect(overlay.header("X-Mockd-Source") == "file scenarios/empty/mock_api_users_get.json")
                #expect(
                    try await mockd.stderrEventually(
                        contains: "GET /api/users?page=2 200 file scenarios/empty/mock_api_users_get.json "),
                    "stderr: \(mockd.stderrText())")
                #expect(mockd.stderrText().contains("ms scenario=empty session=sim-3\n"), "stderr: \(mockd.stderrText())")
                _ = try await Self.send(port: startup.port, "/api/nothing")
                #expect(try await mockd.stderrEventually(contains: "GET /api/nothing 404 "), "stderr: \(mockd.stderrText())")
                #expect(!mockd.stderrText().contains(" 404 404 "), "stderr: \(mockd.stderrText())")
            }
        }
    }

    // MARK: - 8. Messages that mislead

    @Test func messages_ARootThatIsAFileOrMissingSaysSo() async throws {
        try await withTemporaryFolder(["not-a-folder.json": "{}"]) { folder async throws in
            let file = try await runProcess(CLITests.executable, ["check", "--root", "not-a-folder.json"], currentDirectory: folder.path)
            #expect(file.status == 1)
            #expect(
                file.stdout.contains("not-a-folder.json: the mock root is a file, not a folder (give the folder with --root DIR)"),
                "\(file)")
            let missing = try await runProcess(CLITests.executable, ["check", "--root", "MockDta"], currentDirectory: folder.path)
            #expect(missing.status == 1)
            #expect(
                missing.stdout.contains(
                    "MockDta: the mock root folder does not exist: looked for \(folder.path)/MockDta (give it with --root DIR)"),
                "\(missing)")
            #expect(missing.stdout.contains("1 error, 0 warnings"), "\(missing)")
        }
    }

    @Test func messages_AWarningSaysWarningOnce() async throws {
        try await withTemporaryFolder(["mock_api_users_get.json": "[]", "mock_api_users_GET.json": "[]"]) { folder async throws in
            try await Self.withMockd(["--root", folder.path, "--port", "0"], in: folder.path) { mockd, _ async throws in
                let line = "warning configuration problem mockd.file=\(folder.path)/mock_api_users_GET.json mockd.problem=not served"
                #expect(try await mockd.stderrEventually(contains: line), "stderr: \(mockd.stderrText())")
                #expect(!mockd.stderrText().contains("warning warning"), "stderr: \(mockd.stderrText())")
            }
        }
    }
}

extension FirstHourTests {
    /// Under --log-format json the startup line is JSON too.
    @Test func messages_TheStartupLineIsJSONUnderLogFormatJSON() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder async throws in
            let child = try ChildProcess(
                executable: CLITests.executable, arguments: ["--root", folder.path, "--port", "0", "--log-format", "json"],
                currentDirectory: folder.path, stderrPath: folder.child("stderr"))
            defer { child.stop() }
            let line = try await blocking { try child.readLine() }
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(object["message"] as? String == "listening")
            let url = try #require((object["urls"] as? [String])?.first)
            #expect(url.hasPrefix("http://127.0.0.1:"))
            #expect(object["files"] as? Int == Fixture.mockFileCount())
            #expect(object["routes"] as? Int == 0)
            #expect(object["scenario"] as? String == "default")
            let port = try #require(Int(url.split(separator: ":").last ?? ""))
            #expect(try await Self.send(port: port, "/api/users").status == 200)
        }
    }
}

extension FirstHourTests {
    /// A mistyped subcommand is named as such, with the commands and a suggestion.
    @Test func messages_AMistypedCommandListsTheCommands() async throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let typo = try await runProcess(CLITests.executable, ["chek"], currentDirectory: scratch.path)
        #expect(typo.status != 0)
        #expect(typo.stderr.contains("'chek' is not a mockd command; did you mean check?"), "\(typo)")
        let unknown = try await runProcess(CLITests.executable, ["frobnicate"], currentDirectory: scratch.path)
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("The commands: serve, check, routes, health"), "\(unknown)")
        #expect(!unknown.stderr.contains("did you mean"), "\(unknown)")
    }

    /// `mockd --help` shows the options a first run needs.
    @Test func messages_TheTopHelpShowsRootAndPort() async throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let help = try await runProcess(CLITests.executable, ["--help"], currentDirectory: scratch.path)
        #expect(help.status == 0)
        for option in ["--root DIR", "--port N", "--routes DIR", "mockd serve --help"] {
            #expect(help.stdout.contains(option), "\(option): \(help)")
        }
    }
}

extension FirstHourTests {
    /// A bad escape is named as sent, not as %00.
    @Test(arguments: [("/api/%zz", "'%zz'"), ("/api/%4", "'%4'"), ("/api/%", "'%'"), ("/api/us%00ers", "%00")])
    func messages_ABadEscapeIsNamedAsSent(target: String, named: String) async throws {
        try await withTestServer { server in
            let response = try await server.raw("GET", target)
            #expect(response.status == 400)
            let error = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: String])["error"]
            #expect(error?.contains(named) == true, "\(error ?? "")")
            if named != "%00" { #expect(error?.contains("%00") == false, "\(error ?? "")") }
        }
    }
}

extension FirstHourTests {
    /// A port in use is said once, with the real port, not first as libmicrohttpd's "port 0".
    @Test func messages_APortInUseIsSaidOnceWithItsNumber() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder async throws in
            let taken = try CLITests.ReservedPort(listening: true)
            let result = try await runProcess(
                CLITests.executable, ["--root", folder.path, "--port", String(taken.port)], currentDirectory: folder.path)
            #expect(result.status != 0)
            #expect(result.stderr.contains(String(taken.port)) && result.stderr.contains("in use"), "\(result)")
            #expect(!result.stderr.contains("Failed to bind"), "\(result)")
            withExtendedLifetime(taken) {}
        }
    }
}
