#if !MOCKD_NO_MCP
    import ArgumentParser
    import Dispatch
    #if canImport(FoundationEssentials)
        import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
    #else
        import Foundation
    #endif
    import MockdKit
    import MockdLock
    import Synchronization  // what `Lock` is, outside the ThreadSanitizer build
    import MockdMCP
    import MockdServe
    import MockdSystem
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// `mockd mcp`: an MCP server on standard input and output for the coding agent that starts it,
    /// driving the mockd at `--url` through its admin API (MockdMCP). With `--root`, it starts one
    /// first when none answers, and stops it when the agent goes.
    struct McpCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mcp",
            abstract: "Serve MCP on stdin/stdout for a coding agent (Xcode, Claude Code, Cursor), driving a mockd in a session of its own.",
            discussion: """
                An agent starts it; docs/AGENTS.md has each agent's configuration.
                  mockd mcp                       the mockd at http://127.0.0.1:8080
                  mockd mcp --root MockData       start one if none answers there
                  mockd mcp --root MockData -- --openapi api.yaml
                """
        )

        @Option(help: ArgumentHelp("The mockd to drive: its main port's base URL.", valueName: "url"))
        var url = "http://127.0.0.1:8080"

        @Option(
            name: .customLong("admin-token"),
            help: ArgumentHelp("The admin token of that mockd (--admin-token). [env: MOCKD_ADMIN_TOKEN]", valueName: "token"))
        var adminToken: String?

        @Option(
            help: ArgumentHelp(
                "When nothing answers at --url, start a mockd serving this folder on its host and port, and stop it when the agent goes.",
                valueName: "dir"))
        var root: String?

        @Option(
            name: .customLong("log-file"),
            help: ArgumentHelp(
                "With --root: where the started mockd's output is appended. [default: mockd-mcp-<pid>.log in the temporary folder]",
                valueName: "file"))
        var logFile: String?

        @Argument(
            parsing: .postTerminator,
            help: ArgumentHelp(
                "With --root: more options for the mockd it starts, after --, as `mockd serve` takes them.", valueName: "serve-options"))
        var serveOptions: [String] = []

        /// The host and port of `--url`, for the health check and a started mockd.
        static func endpoint(of url: String) -> (host: String, port: Int)? {
            guard let components = URLComponents(string: url), components.scheme == "http", let host = components.host, !host.isEmpty else {
                return nil
            }
            let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            return (bare, components.port ?? 80)
        }

        func validate() throws {
            guard Self.endpoint(of: url) != nil else {
                throw ValidationError("--url \(url): expected http://HOST:PORT, such as http://127.0.0.1:8080")
            }
            if root == nil, logFile != nil || !serveOptions.isEmpty {
                throw ValidationError("--log-file and options after -- go with --root: they are for the mockd it starts")
            }
        }

        func run() throws {
            guard let (host, port) = Self.endpoint(of: url), let base = URL(string: url) else { throw ExitCode.validationFailure }
            let probe = HealthProbe(host: HealthProbe.address(of: host), port: port, timeoutSeconds: 2, token: adminToken)
            var started: StartedMockd?
            if (try? probe.run())?.status != 200 {
                guard let root else {
                    FileHandleOutput.standardError(
                        "mockd mcp: no mockd answers at \(url); start one (mockd --root MockData), or give --root DIR to have this start it"
                    )
                    throw ExitCode.failure
                }
                let log = logFile ?? (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/mockd-mcp-\(getpid()).log"
                let arguments = StartedMockd.serveArguments(root: root, host: host, port: port, token: adminToken, more: serveOptions)
                switch StartedMockd.start(arguments: arguments, logPath: log, probe: probe) {
                case .success(let mockd): started = mockd
                case .failure(let failure):
                    FileHandleOutput.standardError("mockd mcp: cannot start mockd --root \(root): \(failure.message)")
                    throw ExitCode.failure
                }
            }
            defer { started?.stop() }
            let server = AgentServer(
                client: MockdClient(url: base, token: adminToken), executable: DetachedProcess.currentExecutable(),
                version: MockdVersion.current)
            Self.endInputOnSignal(of: server)
            if let message = Self.wait(for: server) {
                FileHandleOutput.standardError("mockd mcp: \(message)")
                throw ExitCode.failure
            }
        }

        /// Runs the server's task to its end from this synchronous command; the reason it failed, or nil.
        static func wait(for server: AgentServer) -> String? {
            let done = DispatchSemaphore(value: 0)
            let outcome = Outcome()
            Task {
                do {
                    try await server.run()
                } catch {
                    outcome.failure.withLock { $0 = "\(error)" }
                }
                done.signal()
            }
            done.wait()
            return outcome.failure.withLock { $0 }
        }

        /// What the server's task left for this thread to report.
        final class Outcome: Sendable {
            let failure = Lock<String?>(nil)
        }

        /// SIGTERM or SIGINT (an agent stopping its tools) ends the protocol as the end of its input
        /// would, so the session is closed and a started mockd stopped on the way out, as when the
        /// agent closes the pipe. The signals stay blocked (`Signals.block`) and one thread takes them.
        static func endInputOnSignal(of server: AgentServer) {
            let thread = JoinableThread.spawn {
                while Signals.wait() == SIGHUP {}
                Task { await server.endInput() }
            }
            if case .success(let started) = thread { started.detach() }
        }
    }
#endif
