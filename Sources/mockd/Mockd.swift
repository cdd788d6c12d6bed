import ArgumentParser
import MockdHTTP
import MockdServe

@main
struct Mockd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mockd",
        abstract: "A local mock HTTP server: answers from mock_<path>_<method>.json files and JSON route tables.",
        discussion: """
            With no subcommand, mockd serves. The options used most:
              --root DIR        the MockData folder [default: \(DataOptions.defaultRoot)]
              --routes DIR      route tables [default: <root>/../routes, else ./routes]
              --port N          port; 0 takes a free one [default: \(ServeSettings.defaults.server.port)]
              --scenario NAME   scenario when a request names none
              --delay MS        added to every answer
              --proxy URL       forward what nothing matches (--record saves the answers)
            Example: mockd --root MockData --port 8080
            Every option: mockd serve --help
            """,
        version: MockdVersion.withLibrary,
        subcommands: [
            ServeCommand.self, CheckCommand.self, RoutesCommand.self, HealthCommand.self, StopCommand.self, PushCommand.self,
            ImportCommand.self,
        ] + agentCommands,
        defaultSubcommand: ServeCommand.self
    )

    /// Blocks the signals `serve` takes with `sigwait` before anything can start a thread
    /// (parsing already touches Foundation): a thread with them unblocked could be picked to
    /// take a SIGTERM and end the process without a graceful stop. The one-shot commands
    /// unblock them again.
    static func main() {
        Signals.block()
        let commandLine = Array(CommandLine.arguments.dropFirst())
        if let arguments = ImportCommand.collectionArguments(commandLine) {
            main(arguments)
            return
        }
        if let message = ImportCommand.unknownFormat(in: commandLine) {
            FileHandleOutput.standardError("Error: \(message)")
            exit(withError: ExitCode.validationFailure)
        }
        let environment: EnvironmentArguments
        do {
            environment = try EnvironmentArguments(commandLine)
        } catch {
            exit(withError: error)
        }
        // What ParsableCommand.main does, with the environment's arguments, and a line saying
        // which variable gave an option that a usage error names.
        do {
            var command = try parseAsRoot(environment.arguments)
            try command.run()
        } catch {
            let message = fullMessage(for: error)
            if exitCode(for: error) == .validationFailure, let explanation = environment.explaining(message) {
                FileHandleOutput.standardError(message + "\n" + explanation)
                exit(withError: ExitCode.validationFailure)
            }
            exit(withError: error)
        }
    }
}

enum MockdVersion {
    static let current = "0.1.0"
    /// What `--version` prints: mockd's version and the libmicrohttpd it runs on, read from the
    /// library loaded (which one answers decides how strictly requests are parsed).
    static var withLibrary: String { "\(current) (libmicrohttpd \(MicroHTTPDVersion.running))" }
}

extension Mockd {
    /// `mockd mcp`, unless the build leaves it out (MOCKD_NO_MCP, the container image's build).
    #if MOCKD_NO_MCP
        static let agentCommands: [any ParsableCommand.Type] = []
    #else
        static let agentCommands: [any ParsableCommand.Type] = [McpCommand.self]
    #endif
}
