package import MockdCore
import MockdHTTP
import MockdSystem

/// Sends pushes by running a command as `xcrun` is run: `COMMAND simctl push DEVICE BUNDLE -`,
/// the payload on its standard input. `xcrun` when it is on `PATH` (a Mac with Xcode), else the
/// command `--push-command` names (a CI machine's own tooling, a test's stand-in).
package struct CommandPusher: PushSending {
    package let executable: String
    /// simctl answers in well under a second; a simulator that hangs must not hold a queue thread for ever.
    package var timeout: Duration = .seconds(30)

    package init(executable: String) {
        self.executable = executable
    }

    /// `--push-command` when given, else `xcrun` found on `PATH`; nil: none (pushes get 501).
    package static func make(command: String?) -> CommandPusher? {
        if let command { return CommandPusher(executable: command) }
        return CommandRun.find("xcrun").map(CommandPusher.init)
    }

    package func send(_ order: PushOrder) -> PushOutcome {
        let run = CommandRun.run(executable, order.simctlArguments, input: order.payload, timeout: timeout)
        let ending: PushOutcome.Ending =
            switch run.ending {
            case .exited(let status): .exited(status)
            case .signaled(let signal): .signaled(signal)
            case .timedOut: .timedOut
            case .notStarted(let why): .notStarted(why)
            }
        return PushOutcome(
            ending: ending, standardOutput: String(decoding: run.standardOutput, as: UTF8.self),
            standardError: String(decoding: run.standardError, as: UTF8.self))
    }
}
