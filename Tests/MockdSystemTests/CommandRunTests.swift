import MockdSystem
import Testing

/// `CommandRun` with real processes (`/bin/sh`): the input goes in, both outputs and the exit
/// status come back, a command that outlasts its deadline is killed, one that cannot start says why.
@Suite("Running a command")
struct CommandRunTests {
    @Test func inputOutputsAndExitStatus() {
        let run = CommandRun.run(
            "/bin/sh", ["-c", #"cat; echo "args: $0 $1" >&2; exit 3"#, "simctl", "push"], input: Array(#"{"aps": {}}"#.utf8),
            timeout: .seconds(30))
        #expect(run.ending == .exited(3))
        #expect(String(decoding: run.standardOutput, as: UTF8.self) == #"{"aps": {}}"#)
        #expect(String(decoding: run.standardError, as: UTF8.self) == "args: simctl push\n")
    }

    @Test func largeInputAndOutput_NeitherSideBlocks() {
        let input = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        let run = CommandRun.run("/bin/sh", ["-c", "cat"], input: input, timeout: .seconds(30), outputLimit: 1 << 21)
        #expect(run.ending == .exited(0))
        #expect(run.standardOutput.count == input.count)
    }

    @Test func aCommandThatDoesNotReadItsInput_StillEnds() {
        let run = CommandRun.run("/bin/sh", ["-c", "exit 0"], input: [UInt8](repeating: 0, count: 1 << 20), timeout: .seconds(30))
        #expect(run.ending == .exited(0))
    }

    @Test func pastTheDeadline_ItIsKilled() {
        let run = CommandRun.run("/bin/sh", ["-c", "exec sleep 30"], input: [], timeout: .milliseconds(200))
        #expect(run.ending == .timedOut)
    }

    @Test func aMissingExecutable_IsNotStartedWithWhy() {
        let run = CommandRun.run("/nonexistent/xcrun", ["simctl"], input: [], timeout: .seconds(5))
        guard case .notStarted(let why) = run.ending else {
            Issue.record("expected notStarted, found \(run.ending)")
            return
        }
        #expect(why.contains("/nonexistent/xcrun"))
    }

    @Test func find_LooksOnPath() {
        #expect(CommandRun.find("sh") != nil)
        #expect(CommandRun.find("no-such-command-\(UInt32.random(in: 0...UInt32.max))") == nil)
    }
}
