import Foundation
import Testing
import TestSupport

/// `mockd import collection.json` and `mockd check --openapi` on Postman collections, as a user runs them.
@Suite(.timeLimit(.minutes(3)))
struct PostmanImportCLITests {
    static let run = CLITests.executable
    static let fixtures = Fixture.repositoryRoot.appendingPathComponent("Tests/Fixtures/postman")

    /// A dry run writes nothing; the import writes a file and a route table that `check` passes
    /// and a mockd serves (examples as scenarios); a second import keeps what is there.
    @Test func importedExamplesAreServed() async throws {
        try await withTemporaryFolder { folder async throws in
            let collection = Self.fixtures.appendingPathComponent("users.postman_collection.json").path
            let arguments = ["import", collection, "--root", "app/MockData", "--routes", "app/routes"]
            let dry = try await runProcess(Self.run, arguments + ["--dry-run"], currentDirectory: folder.path)
            #expect(dry.status == 0, "\(dry)")
            #expect(dry.stdout.contains("would write app/MockData/mock_users_get.json"), "\(dry)")
            #expect(dry.stdout.contains("would write app/routes/postman-users.json"), "\(dry)")
            #expect(dry.stdout.contains("2 would be written"), "\(dry)")
            #expect(folder.read("app/MockData/mock_users_get.json") == nil)
            #expect(folder.read("app/routes/postman-users.json") == nil)

            let imported = try await runProcess(Self.run, arguments, currentDirectory: folder.path)
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.stdout.contains("2 written"), "\(imported)")
            let check = try await runProcess(
                Self.run, ["check", "--root", "app/MockData", "--routes", "app/routes"], currentDirectory: folder.path)
            #expect(check.status == 0, "\(check)")
            #expect(check.stdout.contains("0 errors, 0 warnings"), "\(check)")
            try await FirstHourTests.withMockd(["--root", "app/MockData", "--routes", "app/routes", "--port", "0"], in: folder.path) {
                _, startup in
                let list = try await FirstHourTests.send("GET", port: startup.port, "/users")
                #expect(list.status == 200, "\(list)")
                #expect(String(decoding: list.body, as: UTF8.self).contains("Grace"), "\(list)")
                #expect(try await FirstHourTests.send("GET", port: startup.port, "/users/3").status == 200)
                let missing = try await FirstHourTests.send(
                    "GET", port: startup.port, "/users/3", headers: [("X-Mock-Scenario", "Not found")])
                #expect(missing.status == 404, "\(missing)")
                #expect(missing.header("X-Error") == "missing", "\(missing)")
                #expect(try await FirstHourTests.send("POST", port: startup.port, "/users").status == 501)
            }

            let again = try await runProcess(Self.run, arguments, currentDirectory: folder.path)
            #expect(again.status == 0, "\(again)")
            #expect(again.stdout.contains("exists, not overwritten: app/MockData/mock_users_get.json"), "\(again)")
            #expect(again.stdout.contains("0 written, 2 already there (not overwritten)"), "\(again)")
        }
    }

    @Test func checkNamesEveryProblemOfABrokenCollection() async throws {
        try await withTemporaryFolder(["MockData/mock_a_get.json": "{}"]) { folder async throws in
            let broken = Self.fixtures.appendingPathComponent("broken.postman_collection.json").path
            let check = try await runProcess(
                Self.run, ["check", "--root", "MockData", "--no-routes", "--openapi", broken], currentDirectory: folder.path)
            #expect(check.status == 1, "\(check)")
            #expect(
                check.stdout.contains(
                    broken + #": item[0].response[0].code: expected the example's HTTP status (an integer 100-599), found "200""#),
                "\(check)")
            #expect(check.stdout.contains(broken + ": item[1].item[0].response[0].header: expected an array"), "\(check)")
            #expect(check.stdout.contains(broken + ": item[1].item[0].response[0].body: expected the body as text"), "\(check)")
            #expect(check.stdout.contains(broken + ": item[2]: expected a request or a folder (an object), found 7"), "\(check)")
            #expect(check.stdout.contains("4 errors"), "\(check)")
        }
    }
}
