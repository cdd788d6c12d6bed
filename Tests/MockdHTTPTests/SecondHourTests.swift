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
        try await withTemporaryFolder(["app/MockData/mock_api_a_get.json": "{}", "app/routes/a.json": #"{"routes": []}"#]) { folder async throws in
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
}
