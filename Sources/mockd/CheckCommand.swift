import ArgumentParser
import MockdCore

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate the mock folder and route tables; list every problem; exit 1 on any."
    )

    @OptionGroup var data: DataOptions

    func run() throws {
        Signals.unblock()
        let result = data.loader(checkExamples: true).load()
        for diagnostic in result.diagnostics { print(diagnostic) }
        let errors = result.diagnostics.filter { $0.severity == .error }.count
        let warnings = result.diagnostics.count - errors
        if let snapshot = result.snapshot {
            print("\(data.resolvedRoot): \(snapshot.fileCount) files\(OperationDescription.summary(snapshot.operations)), \(errors) errors, \(warnings) warnings")
        } else {
            print("\(data.resolvedRoot): \(errors) errors, \(warnings) warnings")
        }
        if !result.diagnostics.isEmpty { throw ExitCode.failure }
    }
}
