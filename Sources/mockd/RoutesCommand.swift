import ArgumentParser
import MockdCore
import MockdServe

struct RoutesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "Print which URL each route and file answers, in the order a request tries them, per scenario."
    )

    @Flag(help: "The table of routes and files by kind (the former listing) instead.")
    var table = false

    @OptionGroup var data: DataOptions

    func run() throws {
        Signals.unblock()
        let result = data.loader.load()
        guard let snapshot = result.snapshot else {
            for diagnostic in result.diagnostics { FileHandleOutput.standardError(diagnostic.description) }
            throw ExitCode.failure
        }
        print(table ? RouteListing(snapshot: snapshot).text : ResolutionOrder.text(snapshot))
    }
}
