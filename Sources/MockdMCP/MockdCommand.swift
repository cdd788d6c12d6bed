import Foundation

/// One run of a mockd command (`mockd import`) to its end, on a thread of its own: the output
/// is read while the command runs (a full pipe would stop it), and the agent's other calls go on.
enum CommandRun {
    struct Outcome: Sendable {
        let status: Int32
        /// Standard output and standard error as they came, in one stream: what a user would see.
        let output: String
    }

    static func run(_ executable: String, _ arguments: [String]) async throws(ToolRefusal) -> Outcome {
        let result: Result<Outcome, ToolRefusal> = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
                let pipe = Pipe()
                process.standardOutput = pipe
                process.standardError = pipe
                process.standardInput = FileHandle.nullDevice
                do {
                    try process.run()
                } catch {
                    continuation.resume(returning: .failure(ToolRefusal("cannot run \(executable): \(error.localizedDescription)")))
                    return
                }
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(
                    returning: .success(Outcome(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))))
            }
        }
        return try result.get()
    }
}
