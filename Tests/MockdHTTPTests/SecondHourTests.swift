import Foundation
import Testing
import TestSupport

/// What a new user met in the second hour, with an app's own MockData, as a real `mockd` process sees it.
@Suite(.timeLimit(.minutes(2)))
struct SecondHourTests {
    static let run = CLITests.executable

    // MARK: - The ./routes fallback

    /// Routes found in the working directory are someone else's as often as not: their errors
    /// say so, where they are, and how to choose another folder or none.
    @Test func routes_ErrorsFromTheWorkingDirectorysFolderSaySoAndNoRoutesTurnsItOff() async throws {
        try await withTemporaryFolder([
            "app/MockData/mock_api_users_get.json": "{}",
            "work/routes/auth.json": #"{"routes": [{"method": "GET", "path": "/a", "respone": {}}]}"#,
        ]) { folder async throws in
            let root = folder.child("app/MockData"), work = folder.child("work")
            for arguments in [["check", "--root", root], ["--root", root, "--port", "0"]] {
                let failed = try await runProcess(Self.run, arguments, currentDirectory: work)
                #expect(failed.status == 1, "\(failed)")
                let output = failed.stdout + failed.stderr
                #expect(output.contains("routes/auth.json: routes[0].respone"), "\(failed)")
                #expect(output.contains("the working directory's routes folder (\(work)/routes)"), "\(failed)")
                #expect(output.contains(folder.child("app/routes")), "\(failed)")
                #expect(output.contains("--routes DIR"), "\(failed)")
                #expect(output.contains("--no-routes"), "\(failed)")
            }
            let none = try await runProcess(Self.run, ["check", "--root", root, "--no-routes"], currentDirectory: work)
            #expect(none.status == 0, "\(none)")
            try await FirstHourTests.withMockd(["--root", root, "--port", "0", "--no-routes"], in: work) { _, startup in
                #expect(startup.line.contains("0 routes"), "\(startup.line)")
            }
            // An empty --routes is not "none" (nor the working directory): it says what to give.
            let empty = try await runProcess(Self.run, ["check", "--root", root, "--routes", ""], currentDirectory: work)
            #expect(empty.status != 0, "\(empty)")
            #expect((empty.stdout + empty.stderr).contains("--no-routes"), "\(empty)")
        }
    }

    // MARK: - Which instance answered

    /// Two mockds on two ports: the startup line, `/__mockd/health` and `mockd health` say
    /// which root and routes folder each serves, as absolute paths.
    @Test func health_AndTheStartupLineNameTheRootAndTheRoutesFolder() async throws {
        try await withTemporaryFolder(["app/MockData/mock_api_a_get.json": "{}", "app/routes/a.json": #"{"routes": []}"#]) {
            folder async throws in
            let app = folder.child("app")
            try await FirstHourTests.withMockd(["--root", "./MockData", "--port", "0"], in: app) { _, startup async throws in
                #expect(startup.line.hasSuffix(") from \(app)/MockData, routes \(app)/routes"), "\(startup.line)")
                let health = try await FirstHourTests.send(port: startup.port, "/__mockd/health")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(health.body)) as? [String: Any])
                #expect(object["root"] as? String == app + "/MockData", "\(object)")
                #expect(object["routesFolder"] as? String == app + "/routes", "\(object)")
                let probe = try await runProcess(Self.run, ["health", "--port", "\(startup.port)"], currentDirectory: folder.path)
                #expect(probe.status == 0, "\(probe)")
                #expect(probe.stdout.contains(#""root": "\#(app)/MockData""#), "\(probe)")
            }
            try await FirstHourTests.withMockd(["--root", "MockData", "--no-routes", "--port", "0"], in: app) { _, startup async throws in
                #expect(startup.line.hasSuffix(") from \(app)/MockData, no routes"), "\(startup.line)")
                let health = try await FirstHourTests.send(port: startup.port, "/__mockd/health")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(health.body)) as? [String: Any])
                #expect(object["routesFolder"] is NSNull, "\(object)")
            }
        }
    }

    // MARK: - Quietly accepted mistakes

    @Test func cli_ShortPortUnknownOptionsAndImportFormatsAreSaidPlainly() async throws {
        try await withTemporaryFolder(["MockData/mock_api_a_get.json": "{}"]) { folder async throws in
            // -p is --port, at the top level too (serve is the default command).
            try await FirstHourTests.withMockd(["-p", "0", "--no-routes"], in: folder.path) { _, startup in
                #expect(startup.line.contains("(1 file, 0 routes, scenario default)"), "\(startup.line)")
            }
            let unknown = try await runProcess(Self.run, ["-x", "8080"], currentDirectory: folder.path)
            #expect(unknown.status != 0)
            #expect(unknown.stderr.contains("'-x' is not an option of mockd serve"), "\(unknown)")
            #expect(!unknown.stderr.contains("'8080' is not a mockd command"), "\(unknown)")
            let postman = try await runProcess(Self.run, ["import", "insomnia", "x.json", "--root", "a"], currentDirectory: folder.path)
            #expect(postman.status != 0)
            #expect(postman.stderr.contains("mockd import insomnia: mockd imports HAR files (mockd import FILE.har"), "\(postman)")
            // The format it knows still takes its options, and counts in the singular.
            let petstore = Fixture.repositoryRoot.appendingPathComponent("Tests/Fixtures/openapi/petstore.yaml").path
            let imported = try await runProcess(
                Self.run, ["import", "openapi", petstore, "--root", "out/MockData", "--routes", "out/routes"],
                currentDirectory: folder.path)
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.stdout.contains("; 1 file, "), "\(imported)")
        }
    }

    @Test func check_CountsFilesAndRoutesInTheSingular() async throws {
        try await withTemporaryFolder([
            "MockData/mock_api_a_get.json": "{}",
            "routes/a.json": #"{"routes": [{"method": "GET", "path": "/b", "response": {"text": "b"}}]}"#,
        ]) { folder async throws in
            let result = try await runProcess(Self.run, ["check", "--root", "MockData"], currentDirectory: folder.path)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("MockData: 1 file, 1 route, 0 errors, 0 warnings"), "\(result)")
        }
    }

    /// One line per recorded answer, not a second "recorded" line with the outcome's debug text.
    @Test func record_LogsOneLinePerRecording() async throws {
        try await withTemporaryFolder([
            "upstream/mock_api_real_get.json": #"{"real": true}"#, "local/MockData/mock_api_a_get.json": "{}",
            "local/routes/README.txt": "recorded routes go here",
        ]) { folder async throws in
            try await FirstHourTests.withMockd(["--root", folder.child("upstream"), "--no-routes", "--port", "0"], in: folder.path) {
                _, upstream async throws in
                let local = folder.child("local")
                try await FirstHourTests.withMockd(
                    [
                        "--root", "MockData", "--routes", "routes", "--port", "0",
                        "--proxy", "http://127.0.0.1:\(upstream.port)", "--record",
                    ], in: local
                ) { mockd, startup async throws in
                    #expect(try await FirstHourTests.send(port: startup.port, "/api/real").status == 200)
                    // The access line comes after whatever the recording logged.
                    #expect(try await mockd.stderrEventually(contains: "GET /api/real 200"), "\(mockd.stderrText())")
                    let lines = mockd.stderrText().split(separator: "\n").filter { $0.contains("recorded") }
                    #expect(lines.count == 1, "\(lines)")
                    #expect(
                        lines.first?.contains("recorded mockd.file=") == true
                            && lines.first?.contains("mockd.request=GET /api/real") == true, "\(lines)")
                }
            }
        }
    }

    // MARK: - Ctrl-C twice

    /// The first signal drains requests in flight (up to its deadline); a second one ends mockd
    /// at once, as Ctrl-C twice does elsewhere.
    @Test func signal_ASecondOneExitsAtOnce() async throws {
        try await withTemporaryFolder(["MockData/mock_api_a_get.json": "{}"]) { folder async throws in
            try await FirstHourTests.withMockd(
                [
                    "--root", "MockData", "--no-routes", "--port", "0", "--min-body-rate", "0",
                    "--idle-timeout", "120",
                ], in: folder.path
            ) { mockd, startup async throws in
                // A request whose body never comes: in flight until the drain's deadline.
                let connection = try RawConnection(port: startup.port)
                try connection.send("POST /api/a HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
                // The request is in: its head was read (a HEAD on another connection is answered after it).
                #expect(try await FirstHourTests.send(port: startup.port, "/api/a").status == 200)
                mockd.send(SIGINT)
                #expect(try await mockd.stderrEventually(contains: "stopping"), "\(mockd.stderrText())")
                let exited = try await blocking { () -> Bool in
                    mockd.send(SIGINT)
                    return mockd.waitUntilExited(timeout: .seconds(5))
                }
                #expect(exited, "still running 5 s after a second SIGINT: \(mockd.stderrText())")
                let status = try await blocking { mockd.waitForExit(timeout: eventDeadline) }
                #expect(status == 128 + SIGINT, "\(String(describing: status)) \(mockd.stderrText())")
                #expect(mockd.stderrText().contains("second signal"), "\(mockd.stderrText())")
                _ = connection
            }
        }
    }
}
