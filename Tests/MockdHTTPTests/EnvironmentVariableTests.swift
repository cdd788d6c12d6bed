import Foundation
import Testing
import TestSupport

/// The `MOCKD_*` variables as `mockd serve` reads them: the same checks as the options they
/// stand for, and the pairs of options that are one setting.
@Suite("MOCKD_* variables")
struct EnvironmentVariableTests {
    @Test func aValueOutOfRangeIsRefusedNamingItsVariable() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            let result = try await runProcess(
                CLITests.executable, ["--root", folder.path, "--port", "0"], environment: ["MOCKD_JOURNAL_SIZE": "-1"],
                currentDirectory: folder.path)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("--journal-size -1: expected 0 or more"), "\(result)")
            #expect(result.stderr.contains("--journal-size is MOCKD_JOURNAL_SIZE"), "\(result)")
        }
    }

    @Test func aBadBooleanIsRefusedNamingItsVariable() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            let result = try await runProcess(
                CLITests.executable, ["--root", folder.path, "--port", "0"], environment: ["MOCKD_CORS": "maybe"],
                currentDirectory: folder.path)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("MOCKD_CORS=maybe: expected true or false"), "\(result)")
        }
    }

    /// A container image sets MOCKD_ROUTES; MOCKD_NO_ROUTES=1 given to it turns route tables off.
    @Test func noRoutesWinsOverARoutesVariable() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            let environment = ["MOCKD_ROUTES": folder.child("no-such-routes"), "MOCKD_NO_ROUTES": "1"]
            try await CLITests.withMockd(["--root", folder.path, "--port", "0"], environment: environment, in: folder) { _, startup in
                #expect(startup.line.hasSuffix("no routes"), "\(startup.line)")
            }
        }
    }

    /// `--routes DIR` and `--no-routes` are one setting: typing one leaves both variables unread.
    @Test func aTypedRoutesFolderWinsOverNoRoutes() async throws {
        let routes = try TemporaryFolder()
        defer { routes.remove() }
        try await withTemporaryFolder(Fixture.standard) { folder in
            let arguments = ["--root", folder.path, "--routes", routes.path, "--port", "0"]
            try await CLITests.withMockd(arguments, environment: ["MOCKD_NO_ROUTES": "1"], in: folder) { _, startup in
                #expect(startup.line.contains(", routes /") && !startup.line.hasSuffix("no routes"), "\(startup.line)")
            }
        }
    }
}
