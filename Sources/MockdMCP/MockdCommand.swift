import Foundation
import MockdSystem

/// One run of a mockd command (`mockd import`) to its end, through the system layer's
/// `CommandRun` (the push runner's too), on a thread of its own so the agent's other calls go on.
enum MockdCommand {
    struct Outcome: Sendable {
        let status: Int32
        /// Standard output, then standard error: what a user would see.
        let output: String
    }

    /// An import of a large capture takes seconds; one that takes minutes is stuck.
    static let timeout = Duration.seconds(300)

    static func run(_ executable: String, _ arguments: [String]) async throws(ToolRefusal) -> Outcome {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<CommandRun.Result, Never>) in
            Thread.detachNewThread {
                continuation.resume(returning: CommandRun.run(executable, arguments, input: [], timeout: timeout, outputLimit: 4 << 20))
            }
        }
        let output = String(decoding: result.standardOutput + result.standardError, as: UTF8.self)
        switch result.ending {
        case .exited(let status): return Outcome(status: status, output: output)
        case .signaled(let signal): return Outcome(status: 128 + signal, output: output)
        case .timedOut: throw ToolRefusal("\(executable) \(arguments.first ?? "") took over \(timeout) and was stopped")
        case .notStarted(let why): throw ToolRefusal("cannot run \(executable): \(why)")
        }
    }
}
