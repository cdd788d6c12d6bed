import Foundation
import MockdCore
import MockdHTTP
import MockdServe
import Testing
import TestSupport

/// `mockd serve` reads its options once, in the groups that declare them, and runs with what they
/// say; the defaults `--help` shows are the ones a run given no option uses.
@Suite("Serve settings")
struct ServeSettingsTests {
    @Test func theOptionsGivenAreWhatTheRunUses() async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            let arguments = ["--root", folder.path, "--port", "0", "--journal-size", "7", "--scenario", "empty"]
            try await CLITests.withMockd(arguments, in: folder) { _, startup in
                #expect(startup.port > 0)
                #expect(startup.line.contains("scenario empty)"), "\(startup.line)")
                for _ in 0..<8 { #expect(try await CLITests.get(port: startup.port, "/api/users").status == 200) }
                let journal = try await CLITests.get(port: startup.port, "/__mockd/requests")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(journal.body)) as? [String: Any])
                #expect(RequestWaitTests.entries(object).count == 7, "\(journal.text)")
            }
        }
    }

    @Test(arguments: [
        (["--port", "70000"], "--port 70000: expected 0-65535"),
        // `=`: a separate `-1` would be read as an option, and the value as missing.
        (["--journal-size=-1"], "--journal-size -1: expected 0 or more"),
    ])
    func aBadValueIsRefusedBeforeAnythingRuns(_ option: [String], _ message: String) async throws {
        try await withTemporaryFolder(Fixture.standard) { folder in
            let result = try await runProcess(CLITests.executable, ["--root", folder.path] + option, currentDirectory: folder.path)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains(message), "\(result)")
            #expect(!result.stdout.contains("listening"), "\(result)")
        }
    }

    /// The help shows each default as the parser prints it, from the option's initial value,
    /// which is `ServeSettings.defaults`: what `Serving.run` is given when no option is.
    @Test func theDefaultsTheHelpShowsAreTheRunsOwn() async throws {
        let result = try await runProcess(CLITests.executable, ["serve", "--help"])
        #expect(result.status == 0, "\(result)")
        let defaults = ServeSettings.defaults
        #expect(Self.shownDefault(result.stdout, "--host <host>") == defaults.server.host, "\(result.stdout)")
        #expect(Self.shownDefault(result.stdout, "-p, --port <port>") == String(defaults.server.port))
        #expect(Self.shownDefault(result.stdout, "--journal-size <n>") == String(defaults.journalSize))
        // And those are the configuration types' own, not a copy.
        #expect(defaults.server.host == ServerConfiguration().host && defaults.server.port == ServerConfiguration().port)
        #expect(defaults.journalSize == RequestJournal().capacity)
    }

    /// `(default: X)` in the help of the option written `usage`, its lines joined (the parser
    /// wraps long help at the terminal's width).
    static func shownDefault(_ help: String, _ usage: String) -> String? {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.drop { $0 == " " }.hasPrefix(usage + " ") }) else { return nil }
        var text = String(lines[start])
        // Its help goes on in the lines indented past the next option's dash.
        for line in lines[(start + 1)...] {
            guard !line.isEmpty, !line.hasPrefix("  -") else { break }
            text += " " + line.drop { $0 == " " }
        }
        return text.firstMatch(of: /\(default: ([^)]+)\)/).map { String($0.1) }
    }
}
