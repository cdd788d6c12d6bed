import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing
import TestSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `mockd` executable, run as users and Docker run it.
@Suite("mockd CLI")
struct CLITests {
    /// The built binary: it sits next to the test bundle (`swift build --build-tests` builds both).
    static let executable: String = {
        var candidates: [String] = []
        if let runner = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append((runner as NSString).deletingLastPathComponent + "/mockd")
        }
        if let main = Bundle.main.executablePath {
            candidates.append((main as NSString).deletingLastPathComponent + "/mockd")
        }
        candidates.append(Fixture.repositoryRoot.appendingPathComponent(".build/debug/mockd").path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }()

    /// "Promptly" after a signal: well below the 10 s a shutdown waits for requests in flight,
    /// with room for a loaded machine.
    static let promptExit: Duration = .seconds(8)

    static var startupLine: Regex<(Substring, Substring, Substring, Substring, Substring)> {
        /mockd listening on http:\/\/127\.0\.0\.1:(\d+) \((\d+) files?, (\d+) routes?(?:, [^,)]+)*, scenario (\S+)\)(?: from .*)?/
    }

    struct Startup {
        let line: String
        let port: Int
        let files: Int
    }

    /// Starts `mockd arguments…` in `folder`, reads its startup line, runs `body`, and always kills it.
    static func withMockd<T>(
        _ arguments: [String], environment: [String: String] = [:], in folder: TemporaryFolder,
        _ body: (ChildProcess, Startup) async throws -> T
    ) async throws -> T {
        let child = try ChildProcess(
            executable: executable, arguments: arguments, environment: environment,
            currentDirectory: folder.path, stderrPath: folder.child("mockd-\(UUID().uuidString).stderr"))
        defer { child.stop() }
        let line = try await blocking { try child.readLine() }
        let match = try #require(line.wholeMatch(of: startupLine), "unexpected startup line: \(line.debugDescription)")
        let startup = Startup(line: line, port: Int(match.1)!, files: Int(match.2)!)
        return try await body(child, startup)
    }

    static func get(port: Int, _ target: String) async throws -> RawResponse {
        try await blocking { try RawConnection.exchange(port: port, "GET", target) }
    }

    /// A port nothing listens on, held (bound, not listening) so no one else takes it while the test runs.
    final class ReservedPort: Sendable {
        let fd: Int32
        let port: Int

        init(listening: Bool = false) throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard fd >= 0, bound == 0, !listening || listen(fd, 1) == 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw RawHTTPError(description: "reserving a port: \(reason)")
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            self.fd = fd
            self.port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(fd) }
    }

    // MARK: - serve

    @Test func serve_PrintsTheRealAddressThenServes() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            try await Self.withMockd(["--root", folder.path, "--port", "0"], in: folder) { mockd, startup in
                #expect(startup.port > 0)
                #expect(
                    startup.line.hasPrefix(
                        "mockd listening on http://127.0.0.1:\(startup.port) (\(Fixture.mockFileCount()) files, 0 routes, scenario default)"
                    ))
                let response = try await Self.get(port: startup.port, "/api/users?page=2")
                #expect(response.status == 200)
                #expect(response.body == Fixture.body("mock_api_users_get.json"))
                #expect(response.header("X-Mockd-Source") == "file users/mock_api_users_get.json")
                // Through URLSession too.
                let (data, urlResponse) = try await URLSession.shared.data(
                    from: URL(string: "http://127.0.0.1:\(startup.port)/api/user/123")!)
                #expect((urlResponse as? HTTPURLResponse)?.statusCode == 200)
                #expect(Array(data) == Fixture.body("mock_api_user_123_get.json"))
                // One access-log line per request on stderr, naming what answered.
                #expect(mockd.waitForStderr(containing: "mock_api_user_123_get.json"), "stderr: \(mockd.stderrText())")
            }
        }
    }

    @Test func serve_ExplicitSubcommandAndScenarioFlag() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            try await Self.withMockd(["serve", "--root", folder.path, "--port", "0", "--scenario", "empty"], in: folder) { _, startup in
                #expect(startup.line.contains("scenario empty)"))
                let response = try await Self.get(port: startup.port, "/api/users")
                #expect(response.body == Fixture.bytes("scenarios/empty/mock_api_users_get.json"))
            }
        }
    }

    @Test func serve_InvalidConfigurationFailsFastListingEveryError() async throws {
        try await withTemporaryFolder(Self.brokenFiles) { folder in
            let result = try await runProcess(Self.executable, ["--root", folder.path, "--port", "0"], currentDirectory: folder.path)
            #expect(result.status != 0)
            #expect(!result.stdout.contains("listening"))
            for file in Self.brokenFileNames { #expect(result.stderr.contains(folder.path + "/" + file), "\(file) not named:\n\(result)") }
        }
    }

    // MARK: - check

    static let brokenFiles: [String: String] = [
        "mock_api_health_get.json": "{\n  \"status\": \"ok\"\n  \"version\": \"1\"\n}\n",
        "users/mock_api_users_get.json": "[\n  {\"id\": 1}\n  {\"id\": 2}\n]\n",
        "a/mock_api_user_123_get.json": "{\"id\": 123}\n",
        "b/mock_api_user_123_get.json": "{\"id\": 123}\n",
        "mock_api_episodes_get.json": "{\"episodes\": []}\n",
    ]
    static let brokenFileNames = [
        "mock_api_health_get.json", "users/mock_api_users_get.json", "a/mock_api_user_123_get.json", "b/mock_api_user_123_get.json",
    ]

    @Test func check_BrokenFolderExits1NamingEveryError() async throws {
        try await withTemporaryFolder(Self.brokenFiles) { folder in
            let result = try await runProcess(Self.executable, ["check", "--root", folder.path], currentDirectory: folder.path)
            #expect(result.status == 1, "\(result)")
            let output = result.stdout + result.stderr
            for file in Self.brokenFileNames {
                #expect(output.contains(folder.path + "/" + file), "\(file) not named:\n\(result)")
            }
            // Invalid JSON comes with its place: line 3 for the health file, line 3 for the users file.
            #expect(output.contains(folder.path + "/mock_api_health_get.json: line 3, column "), "\(result)")
            #expect(output.contains(folder.path + "/users/mock_api_users_get.json: line 3, column "), "\(result)")
            #expect(output.contains("3 errors"), "\(result)")
        }
    }

    @Test func check_BundledMockDataExits0() async throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let result = try await runProcess(Self.executable, ["check", "--root", Fixture.bundledMockData], currentDirectory: scratch.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("0 errors"), "\(result)")
    }

    @Test func check_MissingRootExits1NamingIt() async throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let missing = scratch.child("no-such-folder")
        let result = try await runProcess(Self.executable, ["check", "--root", missing], currentDirectory: scratch.path)
        #expect(result.status == 1, "\(result)")
        #expect((result.stdout + result.stderr).contains(missing), "\(result)")
    }

    @Test func check_WarningsAlsoFail() async throws {
        try await withTemporaryFolder(["mock_api_users_get.json": "[]", "mock_api_users_GET.json": "[]"]) { folder in
            let result = try await runProcess(Self.executable, ["check", "--root", folder.path], currentDirectory: folder.path)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("warning: " + folder.path + "/mock_api_users_GET.json"), "\(result)")
        }
    }

    @Test func serve_PortInUseFailsWithAClearMessage() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            let taken = try ReservedPort(listening: true)
            let result = try await runProcess(
                Self.executable, ["--root", folder.path, "--port", String(taken.port)], currentDirectory: folder.path)
            #expect(result.status != 0, "\(result)")
            #expect(result.stderr.contains(String(taken.port)) && result.stderr.contains("in use"), "\(result)")
            withExtendedLifetime(taken) {}
        }
    }

    // MARK: - Environment

    @Test func environment_ABadNumberIsAUsageErrorNamingTheVariable() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            let result = try await runProcess(
                Self.executable, ["--root", folder.path], environment: ["MOCKD_PORT": "eighty"],
                currentDirectory: folder.path)
            #expect(result.status != 0, "\(result)")
            #expect(result.stderr.contains("MOCKD_PORT"), "\(result)")
        }
    }

    @Test func environment_RootAndPortComeFromMOCKDVariables() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            // Find a free port, then let mockd bind it through MOCKD_PORT.
            let port = try ReservedPort().port
            try await Self.withMockd([], environment: ["MOCKD_ROOT": folder.path, "MOCKD_PORT": String(port)], in: folder) { _, startup in
                #expect(startup.port == port)
                #expect(startup.files == Fixture.mockFileCount())
                let response = try await Self.get(port: port, "/api/users")
                #expect(response.body == Fixture.body("mock_api_users_get.json"))
            }
        }
    }

    @Test func environment_AFlagWinsOverTheVariable() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            // MOCKD_PORT names a port that is taken and MOCKD_ROOT a folder that does not exist:
            // mockd only starts if the flags win.
            let taken = try ReservedPort(listening: true)
            let environment = ["MOCKD_ROOT": folder.child("does-not-exist"), "MOCKD_PORT": String(taken.port)]
            try await Self.withMockd(["--root", folder.path, "--port", "0"], environment: environment, in: folder) { _, startup in
                #expect(startup.port != taken.port)
                #expect(startup.files == Fixture.mockFileCount())
                let response = try await Self.get(port: startup.port, "/api/user/123")
                #expect(response.status == 200)
            }
        }
    }

    @Test func environment_CheckReadsMOCKDROOT() async throws {
        try await withTemporaryFolder(Self.brokenFiles) { folder in
            let broken = try await runProcess(
                Self.executable, ["check"], environment: ["MOCKD_ROOT": folder.path], currentDirectory: folder.path)
            #expect(broken.status == 1, "\(broken)")
            let fine = try await runProcess(
                Self.executable, ["check"], environment: ["MOCKD_ROOT": Fixture.bundledMockData], currentDirectory: folder.path)
            #expect(fine.status == 0, "\(fine)")
        }
    }

    // MARK: - health

    @Test func health_Exits0AgainstARunningMockdAnd1WhenNothingListens() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            try await Self.withMockd(["--root", folder.path, "--port", "0"], in: folder) { _, startup in
                let up = try await runProcess(Self.executable, ["health", "--port", String(startup.port)])
                #expect(up.status == 0, "\(up)")
                // Docker's HEALTHCHECK gets the port from the same variable as the server.
                let viaEnvironment = try await runProcess(Self.executable, ["health"], environment: ["MOCKD_PORT": String(startup.port)])
                #expect(viaEnvironment.status == 0, "\(viaEnvironment)")
            }
            let nothing = try ReservedPort()
            let down = try await runProcess(Self.executable, ["health", "--port", String(nothing.port)])
            #expect(down.status == 1, "\(down)")
        }
    }

    // MARK: - Signals

    @Test func sigterm_WithARequestInFlight_FinishesItAndExits0() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            try await Self.withMockd(["--root", folder.path, "--port", "0"], in: folder) { mockd, startup in
                let body = Array(#"{"seconds": 1, "padding": "xxxx"}"#.utf8)
                let (interim, response) = try await blocking { () -> (RawResponse, RawResponse) in
                    let connection = try RawConnection(port: startup.port)
                    // Expect: 100-continue makes the server say when it has the request line and headers,
                    // so the signal is known to arrive while the request is in flight.
                    try connection.send(
                        "POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nExpect: 100-continue\r\n\r\n"
                    )
                    let interim = try connection.readResponse()
                    try connection.send(Array(body.prefix(10)))
                    mockd.send(SIGTERM)
                    guard mockd.waitForStderr(containing: "stopping") else {
                        throw RawHTTPError(description: "mockd did not log that it is stopping; stderr: \(mockd.stderrText())")
                    }
                    try connection.send(Array(body.dropFirst(10)))
                    return (interim, try connection.readResponse())
                }
                #expect(interim.status == 100)
                #expect(response.status == 200, "\(response)")
                #expect(response.body == Fixture.body("mock_api_v1_sleep_post.json"))
                let status = try await blocking { mockd.waitForExit(timeout: eventDeadline) }
                #expect(status == 0, "stderr: \(mockd.stderrText())")
            }
        }
    }

    @Test("idle shutdown", arguments: [SIGTERM, SIGINT])
    func signal_WhenIdle_ExitsPromptly(signal: Int32) async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            try await Self.withMockd(["--root", folder.path, "--port", "0"], in: folder) { mockd, _ in
                let exitedPromptly = try await blocking { () -> Bool in
                    mockd.send(signal)
                    return mockd.waitUntilExited(timeout: Self.promptExit)
                }
                #expect(exitedPromptly, "still running \(Self.promptExit) after the signal")
                let status = try await blocking { mockd.waitForExit(timeout: eventDeadline) }
                #expect(status == 0, "stderr: \(mockd.stderrText())")
            }
        }
    }

    /// A keep-alive client that keeps its connection open must not hold up a shutdown.
    @Test func sigterm_WithAnIdleKeepAliveConnection_ExitsPromptly() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            try await Self.withMockd(["--root", folder.path, "--port", "0"], in: folder) { mockd, startup in
                let exitedPromptly = try await blocking { () -> Bool in
                    let connection = try RawConnection(port: startup.port)
                    try connection.send(RawConnection.request("GET", "/api/users"))
                    _ = try connection.readResponse()
                    mockd.send(SIGTERM)
                    let exited = mockd.waitUntilExited(timeout: Self.promptExit)
                    withExtendedLifetime(connection) {}
                    return exited
                }
                #expect(exitedPromptly, "still running \(Self.promptExit) after SIGTERM")
                let status = try await blocking { mockd.waitForExit(timeout: eventDeadline) }
                #expect(status == 0, "stderr: \(mockd.stderrText())")
            }
        }
    }

    /// Requests the server refused (431, 400) are not in flight any more: SIGTERM after them is prompt.
    @Test func sigterm_AfterRefusedRequests_ExitsPromptly() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            try await Self.withMockd(["--root", folder.path, "--port", "0"], in: folder) { mockd, startup in
                let bad = try await blocking { () -> [Int] in
                    let big = String(repeating: "h", count: 40_000)
                    return [
                        try RawConnection.exchange(port: startup.port, "GET", "/api/users", headers: [("X-Big", big)]).status,
                        try RawConnection.exchange(port: startup.port, "GET", "/api/%zz").status,
                        try RawConnection.exchange(port: startup.port, "GET", "/api/" + big).status,
                    ]
                }
                #expect(bad == [431, 400, 414])
                let exitedPromptly = try await blocking { () -> Bool in
                    mockd.send(SIGTERM)
                    return mockd.waitUntilExited(timeout: Self.promptExit)
                }
                #expect(exitedPromptly, "still running \(Self.promptExit) after SIGTERM")
                let status = try await blocking { mockd.waitForExit(timeout: eventDeadline) }
                #expect(status == 0, "stderr: \(mockd.stderrText())")
            }
        }
    }
}
