import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdCore
import MockdDisk
import MockdHTTP
import Testing
import TestSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reload in-process (MockdServe's `Reloader`, which `mockd serve` runs), and through the `mockd` binary:
/// SIGHUP, `--watch`, `--no-watch`, and the systemd notify protocol.
@Suite("Reload")
struct ReloadTests {
    static let files: [String: String] = ["mock_api_users_get.json": #"{"version": 1}"#]
    static let table = routeTable(
        #"{"method": "GET", "path": "/api/greeting", "response": {"text": "old"}}"#,
        #"{"method": "GET", "path": "/api/seq", "responses": [{"text": "one"}, {"text": "two"}, {"text": "three"}]}"#)

    // MARK: - In process

    @Test func reload_AnEditTakesEffect() async throws {
        try await withRouteServer(files: Self.files, tables: ["a.json": Self.table]) { server in
            #expect(try await server.request("GET", "/api/users").text == Self.files["mock_api_users_get.json"])
            #expect(try await server.request("GET", "/api/greeting").text == "old")
            let edited = #"{"version": 2}"#
            try server.write("MockData/mock_api_users_get.json", edited)
            try server.write("routes/a.json", Self.table.replacingOccurrences(of: #""text": "old""#, with: #""text": "new""#))
            try server.write("MockData/mock_api_teams_get.json", "[]")
            let report = server.reload(trigger: "test")
            #expect(report.ok, "\(report.errors)")
            #expect(report.files == 2)
            #expect(report.routes == 2)
            #expect(report.trigger == "test")
            #expect(try await server.request("GET", "/api/users").text == edited)
            #expect(try await server.request("GET", "/api/greeting").text == "new")
            #expect(try await server.request("GET", "/api/teams").status == 200)
        }
    }

    /// A miss's report is built once and its libmicrohttpd response reused; neither may outlive
    /// the configuration it describes, nor drop the headers `--cors` adds.
    @Test func reload_ARepeatedMissIsAnsweredAgainUntilTheFileExists() async throws {
        try await withRouteServer(files: Self.files, tables: ["a.json": Self.table], configure: { $0.cors = true }) { server in
            let first = try await server.request("GET", "/api/teams")
            let second = try await server.request("GET", "/api/teams")
            for miss in [first, second] {
                #expect(miss.status == 404)
                #expect(miss.header("X-Mockd-Source") == "404")
                #expect(miss.header("Access-Control-Allow-Origin") == "*")
            }
            #expect(second.body == first.body)
            #expect(first.text.contains("mock_api_teams_get.json"))

            try server.write("MockData/mock_api_teams_get.json", #"[{"id": 1}]"#)
            #expect(server.reload(trigger: "test").ok)
            let found = try await server.request("GET", "/api/teams")
            #expect(found.status == 200)
            #expect(found.text == #"[{"id": 1}]"#)
        }
    }

    /// The reused 404 response is kept with the report, in the snapshot; a library user may
    /// serve one snapshot from two servers, and each must send its own `--cors` headers.
    @Test func aRepeatedMissKeepsEachServersHeadersWhenTwoServeOneSnapshot() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Self.files)
        let snapshot = try #require(MockDataLoader(files: DiskFiles(), root: folder.path).load().snapshot)
        try await withServer(snapshot: snapshot, logger: silentLogger) { plain in
            try await withServer(snapshot: snapshot, configure: { $0.cors = true }, logger: silentLogger) { withCORS in
                for port in [plain.port, withCORS.port, plain.port, withCORS.port] {
                    let miss = try await blocking { try RawConnection.exchange(port: port, "GET", "/api/teams") }
                    #expect(miss.status == 404)
                    #expect(miss.header("Access-Control-Allow-Origin") == (port == withCORS.port ? "*" : nil))
                }
            }
        }
    }

    @Test func reload_ABrokenEditKeepsTheOldAnswerAndHealthSaysWhy() async throws {
        try await withRouteServer(files: Self.files, tables: ["a.json": Self.table]) { server in
            #expect(try await server.request("GET", "/api/greeting").text == "old")
            // A missing comma on line 2.
            try server.write(
                "routes/a.json",
                "{\"routes\": [\n  {\"method\": \"GET\" \"path\": \"/api/greeting\", \"response\": {\"text\": \"new\"}}\n]}\n")
            try server.write("MockData/mock_api_users_get.json", #"{"version": 2"#)
            let report = server.reload(trigger: "test")
            #expect(!report.ok)
            #expect(report.errors.count == 2, "\(report.errors)")
            #expect(
                report.errors.contains { $0.hasPrefix(server.routes + "/a.json: line 2, column ") && $0.contains("invalid JSON") },
                "\(report.errors)")
            #expect(report.errors.contains { $0.hasPrefix(server.root + "/mock_api_users_get.json: ") }, "\(report.errors)")
            // Still the last good configuration.
            #expect(try await server.request("GET", "/api/greeting").text == "old")
            #expect(try await server.request("GET", "/api/users").text == Self.files["mock_api_users_get.json"])
            let health = try await server.admin("GET", "/__mockd/health")
            #expect(health.status == 200)
            let last = try #require(health.object["lastReload"] as? [String: Any], "\(health.object)")
            #expect(last["status"] as? String == "failed")
            #expect(last["trigger"] as? String == "test")
            #expect(last["errors"] as? [String] == report.errors)
            // Over HTTP the same reload is a 422 with the errors.
            let viaAdmin = try await server.admin("POST", "/__mockd/reload")
            #expect(viaAdmin.status == 422)
            #expect(viaAdmin.object["errors"] as? [String] == report.errors)
            // Fixed: served again.
            try server.write("routes/a.json", Self.table.replacingOccurrences(of: #""text": "old""#, with: #""text": "fixed""#))
            try server.write("MockData/mock_api_users_get.json", #"{"version": 3}"#)
            #expect(server.reload(trigger: "test").ok)
            #expect(try await server.request("GET", "/api/greeting").text == "fixed")
        }
    }

    /// One bad file keeps the last good configuration, so a new valid file is not served: the
    /// 404 must not tell the user to create the file that is there, and every answer says why.
    @Test func reload_AFailedReloadIsNamedOnEvery404AndEveryAnswer() async throws {
        try await withRouteServer(files: Self.files, tables: ["a.json": Self.table]) { server in
            #expect(try await server.request("GET", "/api/users").header("X-Mockd-Warning") == nil)
            try server.write("MockData/mock_api_bad_get.json", "{\"a\": 1,}\n")
            try server.write("MockData/mock_api_new_get.json", #"{"new": true}"#)
            let failure = server.reload(trigger: "test")
            #expect(!failure.ok)

            let miss = try await server.request("GET", "/api/new")
            #expect(miss.status == 404)
            let report = try miss.jsonObject()
            let hint = try #require(report["hint"] as? String)
            #expect(!hint.hasPrefix("create"), "\(hint)")
            #expect(hint.contains(server.root + "/mock_api_bad_get.json"), "\(hint)")
            #expect(hint.contains("last good configuration"), "\(hint)")
            let failed = try #require(report["reloadFailed"] as? [String: Any], "\(report)")
            let since = try #require(failed["since"] as? String)
            #expect(since.hasSuffix("Z"))
            #expect(failed["servingSince"] is String)
            let errors = try #require(failed["errors"] as? [String])
            #expect(errors == failure.errors)
            let missWarning = try #require(miss.header("X-Mockd-Warning"))
            #expect(missWarning.contains(server.root + "/mock_api_bad_get.json: line 1"), "\(missWarning)")
            #expect(missWarning.contains("since \(since)"), "\(missWarning)")
            #expect(missWarning.contains("last good configuration"), "\(missWarning)")

            // A file of the last good configuration still answers, and says so too.
            let hit = try await server.request("GET", "/api/users")
            #expect(hit.status == 200)
            #expect(hit.text == Self.files["mock_api_users_get.json"])
            #expect(hit.header("X-Mockd-Warning") == missWarning)
            #expect(try await server.request("GET", "/api/greeting").header("X-Mockd-Warning") == missWarning)

            // Failing again on another file: the new error, since the first failure.
            try server.write("MockData/mock_api_bad_get.json", "{}")
            try server.write("routes/a.json", "{\"routes\": [}")
            #expect(!server.reload(trigger: "test").ok)
            let again = try await server.request("GET", "/api/new")
            let warning = try #require(again.header("X-Mockd-Warning"))
            #expect(warning.contains(server.routes + "/a.json"), "\(warning)")
            #expect(!warning.contains("mock_api_bad_get.json"), "\(warning)")
            #expect((try again.jsonObject()["reloadFailed"] as? [String: Any])?["since"] as? String == since)

            // Fixed: the new file answers and no warning is left.
            try server.write("routes/a.json", Self.table)
            #expect(server.reload(trigger: "test").ok)
            let fixed = try await server.request("GET", "/api/new")
            #expect(fixed.status == 200)
            #expect(fixed.header("X-Mockd-Warning") == nil)
            let healthy = try await server.request("GET", "/api/nothing")
            #expect(healthy.header("X-Mockd-Warning") == nil)
            #expect(try healthy.jsonObject()["reloadFailed"] == nil)
        }
    }

    @Test func reload_SequencesAndSessionScenariosSurvive() async throws {
        try await withRouteServer(
            files: Self.files.merging(["scenarios/empty/mock_api_users_get.json": "[]"]) { a, _ in a },
            tables: ["a.json": Self.table]
        ) { server in
            #expect(try await server.request("GET", "/api/seq").text == "one")
            #expect(try await server.admin("PUT", "/__mockd/scenario", body: #"{"scenario": "empty", "session": "S"}"#).status == 200)
            try server.write("routes/a.json", Self.table.replacingOccurrences(of: #""text": "old""#, with: #""text": "new""#))
            #expect(server.reload(trigger: "test").ok)
            #expect(try await server.request("GET", "/api/greeting").text == "new")
            #expect(try await server.request("GET", "/api/seq").text == "two")
            #expect(try await server.request("GET", "/api/users", headers: ["X-Mock-Session": "S"]).text == "[]")
        }
    }

    @Test func reload_ARequestInFlightFinishesOnItsConfiguration() async throws {
        let slow = routeTable(#"{"method": "GET", "path": "/api/slow", "response": {"text": "old", "delayMs": 1000}}"#)
        try await withRouteServer(tables: ["a.json": slow]) { server in
            // One thread sends, sees the request parked, reloads, then reads the answer.
            let (parked, reloaded, answer) = try await server.test.withRawConnection { connection -> (Bool, Bool, String) in
                try connection.send(RawConnection.request("GET", "/api/slow"))
                let parked = FaultTests.waitForParked(server.server, 1)
                try server.write("routes/a.json", slow.replacingOccurrences(of: #""text": "old""#, with: #""text": "new""#))
                let reloaded = server.reload(trigger: "test").ok
                return (parked, reloaded, try connection.readResponse().text)
            }
            #expect(parked, "the request was not in flight when the reload came")
            #expect(reloaded)
            #expect(answer == "old")
            #expect(try await server.request("GET", "/api/slow").text == "new")
        }
    }

    // MARK: - The mockd binary

    /// Lays out `MockData/` and `routes/` in `folder` (the CLI is run from there).
    static func layOut(_ folder: TemporaryFolder) throws {
        try folder.write(["MockData/mock_api_users_get.json": #"{"version": 1}"#, "routes/a.json": table])
    }

    /// Polls `target` until `accept` holds; the last response, whether it holds or not, at the deadline.
    static func poll(
        port: Int, _ target: String, within timeout: Duration = eventDeadline,
        until accept: @escaping @Sendable (RawResponse) -> Bool
    ) async throws -> RawResponse {
        try await blocking {
            let deadline = Deadline(timeout)
            var last = try RawConnection.exchange(port: port, "GET", target)
            while !accept(last) && !deadline.hasPassed {
                usleep(20_000)
                last = try RawConnection.exchange(port: port, "GET", target)
            }
            return last
        }
    }

    static func arguments(_ folder: TemporaryFolder, _ extra: String...) -> [String] {
        ["--root", folder.child("MockData"), "--routes", folder.child("routes"), "--port", "0"] + extra
    }

    @Test func cli_WatchPicksUpModifiedNewAndDeletedFiles() async throws {
        try await withTemporaryFolder { folder in
            try Self.layOut(folder)
            try await withMockdProcess(Self.arguments(folder), in: folder) { mockd, startup in
                #expect(try await mockd.stderrEventually(contains: "watching for changes"), "stderr: \(mockd.stderrText())")
                // Modified
                try folder.write("MockData/mock_api_users_get.json", #"{"version": 2}"#)
                let modified = try await Self.poll(port: startup.port, "/api/users") { $0.text == #"{"version": 2}"# }
                #expect(modified.text == #"{"version": 2}"#, "stderr: \(mockd.stderrText())")
                // New
                try folder.write("MockData/teams/mock_api_teams_get.json", #"["red"]"#)
                let created = try await Self.poll(port: startup.port, "/api/teams") { $0.status == 200 }
                #expect(created.status == 200)
                #expect(created.text == #"["red"]"#)
                // Deleted
                try FileManager.default.removeItem(atPath: folder.child("MockData/teams/mock_api_teams_get.json"))
                let deleted = try await Self.poll(port: startup.port, "/api/teams") { $0.status == 404 }
                #expect(deleted.status == 404)
                // A route table edit
                try folder.write("routes/a.json", Self.table.replacingOccurrences(of: #""text": "old""#, with: #""text": "new""#))
                let route = try await Self.poll(port: startup.port, "/api/greeting") { $0.text == "new" }
                #expect(route.text == "new")
            }
        }
    }

    @Test func cli_NoWatchIgnoresEditsUntilSIGHUP() async throws {
        try await withTemporaryFolder { folder in
            try Self.layOut(folder)
            try await withMockdProcess(Self.arguments(folder, "--no-watch"), in: folder) { mockd, startup in
                #expect(try await CLITests.get(port: startup.port, "/api/greeting").text == "old")
                try folder.write("routes/a.json", Self.table.replacingOccurrences(of: #""text": "old""#, with: #""text": "new""#))
                try folder.write("MockData/mock_api_users_get.json", #"{"version": 2}"#)
                // A bounded wait: longer than the watcher's "within a second".
                let unchanged = try await Self.poll(port: startup.port, "/api/greeting", within: .milliseconds(1500)) { $0.text != "old" }
                #expect(unchanged.text == "old", "reloaded without --watch")
                #expect(!mockd.stderrText().contains("watching for changes"))
                mockd.send(SIGHUP)
                let reloaded = try await Self.poll(port: startup.port, "/api/greeting") { $0.text == "new" }
                #expect(reloaded.text == "new", "stderr: \(mockd.stderrText())")
                #expect(try await CLITests.get(port: startup.port, "/api/users").text == #"{"version": 2}"#)
                #expect(
                    try await mockd.stderrEventually(contains: "SIGHUP"), "the reload is logged with its trigger: \(mockd.stderrText())")
            }
        }
    }

    @Test func cli_ABrokenEditOnSIGHUPKeepsServingAndLogsThePlace() async throws {
        try await withTemporaryFolder { folder in
            try Self.layOut(folder)
            try await withMockdProcess(Self.arguments(folder, "--no-watch"), in: folder) { mockd, startup in
                try folder.write("routes/a.json", routeTable(#"{"method": "GET", "path": "/api/greeting", "response": {"status": "ok"}}"#))
                mockd.send(SIGHUP)
                let place = folder.child("routes") + "/a.json: routes[0].response.status: expected an integer 100-599, found \"ok\""
                let logged =
                    "error configuration problem mockd.file=\(folder.child("routes"))/a.json mockd.location=routes[0].response.status "
                    + "mockd.problem=expected an integer 100-599, found \"ok\"\n"
                #expect(try await mockd.stderrEventually(contains: logged), "stderr: \(mockd.stderrText())")
                #expect(try await CLITests.get(port: startup.port, "/api/greeting").text == "old")
                let health = try await CLITests.get(port: startup.port, "/__mockd/health")
                let last = try #require(
                    (try JSONSerialization.jsonObject(with: Data(health.body)) as? [String: Any])?["lastReload"] as? [String: Any])
                #expect(last["status"] as? String == "failed")
                #expect(last["trigger"] as? String == "SIGHUP")
                #expect(last["errors"] as? [String] == [place])
            }
        }
    }

    // MARK: - systemd notify

    /// A Unix datagram socket the test owns, standing in for systemd's `NOTIFY_SOCKET`.
    final class NotifySocket: Sendable {
        let fd: Int32
        let path: String

        init(path: String) throws {
            self.path = path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            guard fd >= 0 else { throw RawHTTPError(description: "socket: \(String(cString: strerror(errno)))") }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
                close(fd)
                throw RawHTTPError(description: "socket path too long: \(path)")
            }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw RawHTTPError(description: "bind \(path): \(reason)")
            }
        }

        /// The next datagram; throws at the deadline. Blocking.
        func receive(timeout: Duration = eventDeadline) throws -> String {
            let deadline = Deadline(timeout)
            while true {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = Glibc.poll(&poller, 1, deadline.remainingMilliseconds)
                if ready < 0 && errno == EINTR { continue }
                guard ready > 0 else { throw ProcessTimeout(description: "no notify message within \(timeout)") }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard count >= 0 else { throw RawHTTPError(description: "recv: \(String(cString: strerror(errno)))") }
                return String(decoding: buffer.prefix(count), as: UTF8.self)
            }
        }

        deinit {
            close(fd)
            unlink(path)
        }
    }

    @Test func cli_NotifiesReadyReloadingAndStopping() async throws {
        try await withTemporaryFolder { folder in
            try Self.layOut(folder)
            let socket = try NotifySocket(path: folder.child("notify.sock"))
            try await withMockdProcess(Self.arguments(folder, "--no-watch"), environment: ["NOTIFY_SOCKET": socket.path], in: folder) {
                mockd, startup in
                let match = try #require(startup.line.wholeMatch(of: CLITests.startupLine))
                let counted = { (number: Substring, noun: String) in "\(number) \(noun)\(number == "1" ? "" : "s")" }
                let status =
                    "STATUS=serving \(counted(match.2, "file")) and \(counted(match.3, "route")) on http://127.0.0.1:\(startup.port)"
                let ready = try await blocking { try socket.receive() }
                #expect(ready == "READY=1\n" + status)

                // Reload: RELOADING=1 with the monotonic clock, then READY=1 again.
                try folder.write("MockData/mock_api_teams_get.json", "[]")
                let before = SystemClock.monotonicMicroseconds()
                mockd.send(SIGHUP)
                let reloading = try await blocking { try socket.receive() }
                let after = SystemClock.monotonicMicroseconds()
                let reloadMatch = try #require(
                    reloading.wholeMatch(of: /RELOADING=1\nMONOTONIC_USEC=(\d+)/), "\(reloading.debugDescription)")
                let usec = try #require(UInt64(reloadMatch.1))
                #expect(usec >= before && usec <= after, "MONOTONIC_USEC=\(usec) not within [\(before), \(after)]")
                let readyAgain = try await blocking { try socket.receive() }
                let filesAfter = try #require(Int(match.2)) + 1
                #expect(
                    readyAgain
                        == "READY=1\nSTATUS=serving \(counted(Substring("\(filesAfter)"), "file")) and \(counted(match.3, "route")) on http://127.0.0.1:\(startup.port)"
                )

                mockd.send(SIGTERM)
                let stopping = try await blocking { try socket.receive() }
                #expect(stopping == "STOPPING=1")
                let exit = try await blocking { mockd.waitForExit(timeout: eventDeadline) }
                #expect(exit == 0, "stderr: \(mockd.stderrText())")
            }
            withExtendedLifetime(socket) {}
        }
    }
}

enum SystemClock {
    /// CLOCK_MONOTONIC in microseconds, the clock systemd wants in MONOTONIC_USEC.
    static func monotonicMicroseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec) / 1000
    }
}
