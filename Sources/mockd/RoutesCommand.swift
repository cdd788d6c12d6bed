import ArgumentParser
import MockdCore

struct RoutesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "Print what would be served, in resolution order."
    )

    @OptionGroup var data: DataOptions

    func run() throws {
        Signals.unblock()
        let result = data.loader.load()
        guard let snapshot = result.snapshot else {
            for diagnostic in result.diagnostics { FileHandleOutput.standardError(diagnostic.description) }
            throw ExitCode.failure
        }
        print(RouteListing(snapshot: snapshot).text)
    }
}
