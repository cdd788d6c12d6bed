import ArgumentParser
import MockdCore
import MockdServe

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate the mock folder and route tables; list every problem; exit 1 on any (--no-strict: on errors only)."
    )

    @OptionGroup var data: DataOptions

    // Strict by default: a warning is almost always a file the user meant to be served
    // (mock_api_users_GET.json, an unreachable route), which CI should catch.
    @Flag(inversion: .prefixedNo, help: "Exit 1 on warnings too. --no-strict exits 0 when there are only warnings; errors always exit 1.")
    var strict = true

    @Flag(
        help:
            "Also list each operation of the --openapi and --contract documents that no mock file or route answers (not mocked), and each mock file or route that no document has (undocumented)."
    )
    var coverage = false

    func run() throws {
        Signals.unblock()
        var result = data.loader(checkExamples: true).load()
        if coverage, let snapshot = result.snapshot { result.diagnostics += ContractCoverage.findings(snapshot) }
        for diagnostic in result.diagnostics { print(diagnostic) }
        let errors = result.diagnostics.filter { $0.severity == .error }.count
        let warnings = result.diagnostics.count - errors
        let counts = "\(Counted.text(errors, "error")), \(Counted.text(warnings, "warning"))"
        if let snapshot = result.snapshot {
            print(
                "\(data.root): \(Counted.text(snapshot.fileCount, "file")), \(Counted.text(snapshot.routes.count, "route"))"
                    + "\(OperationDescription.summary(snapshot.operations)), \(counts)")
        } else {
            print("\(data.root): \(counts)")
        }
        if errors > 0 || (strict && warnings > 0) {
            if errors == 0 { print("warnings fail the check; mockd check --no-strict lets them pass") }
            throw ExitCode.failure
        }
    }
}
