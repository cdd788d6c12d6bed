import ArgumentParser
import MockdHTTP
import Testing

@testable import mockd

/// `mockd serve` reads its options and the environment once: `validate()` (which reports a bad
/// value with serve's own usage) keeps what it made for `run()`.
@Suite("Serve settings")
struct ServeSettingsTests {
    @Test func theCheckedSettingsAreKeptForRun() throws {
        let command = try ServeCommand.parse(["--port", "0", "--delay", "25", "--journal-size", "7", "--scenario", "empty"])
        let settings = try #require(command.checked.settings)
        #expect(settings.server.port == 0)
        #expect(settings.server.globalDelay == .milliseconds(25))
        #expect(settings.journalSize == 7)
        #expect(settings.scenario == "empty")
    }

    @Test func aBadValueIsRefusedBeforeAnythingRuns() {
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--port", "70000"]) }
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--journal-size", "-1"]) }
    }
}
