import ArgumentParser

@main
struct Mockd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mockd",
        abstract: "A local mock HTTP server: answers from mock_<path>_<method>.json files and JSON route tables.",
        version: MockdVersion.current,
        subcommands: [ServeCommand.self, CheckCommand.self, RoutesCommand.self, HealthCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}

enum MockdVersion {
    static let current = "0.1.0"
}
