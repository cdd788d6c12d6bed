import Foundation
import MCP
public import MockdKit

/// `mockd mcp`'s server: MCP over stdio for the agent that started it, driving a mockd through
/// its admin API. It opens a session of its own before it answers the agent (so the
/// instructions can name its base URL), acts there unless told otherwise, and closes it when the
/// agent goes.
public struct AgentServer: Sendable {
    let client: MockdClient
    /// This program (mockd), for `mockd import`.
    let executable: String?
    /// mockd's version, which the agent is told at initialisation.
    let version: String
    let transport = LineTransport()

    public init(client: MockdClient, executable: String?, version: String) {
        self.client = client
        self.executable = executable
        self.version = version
    }

    /// Ends the session with the agent as the end of standard input does (for SIGTERM): `run`
    /// then closes the session and returns.
    public func endInput() async {
        await transport.disconnect()
    }

    /// Serves until the agent closes standard input; the session is closed before returning.
    /// Throws when mockd does not answer or refuses the session, before anything is served.
    public func run() async throws {
        let own = try await openSession()
        do {
            try await serve(in: own)
        } catch {
            await close(own.id)
            throw error
        }
        await close(own.id)
    }

    /// `mcp-<pid>`, which a developer reading the dashboard or the access log can tell for the
    /// agent's; mockd's own id when that one is taken.
    func openSession() async throws -> MockdSession {
        do {
            return try await client.newSession(id: "mcp-\(ProcessInfo.processInfo.processIdentifier)")
        } catch let error as MockdError where error.status == 409 {
            return try await client.newSession()
        }
    }

    func serve(in own: MockdSession) async throws {
        let admin = AdminCalls(client: client)
        let calls = ToolCalls(admin: admin, own: own, executable: executable)
        let resources = ResourceCatalog(admin: admin, own: own)
        let server = Server(
            name: "mockd", version: version, title: "mockd",
            instructions: Self.instructions(own: own, url: client.url),
            capabilities: .init(resources: .init(subscribe: false, listChanged: false), tools: .init(listChanged: false)))
        await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: ToolCatalog.tools) }
        await server.withMethodHandler(CallTool.self) { parameters in await calls.call(parameters.name, parameters.arguments) }
        await server.withMethodHandler(ListResources.self) { _ in ListResources.Result(resources: resources.resources) }
        await server.withMethodHandler(ReadResource.self) { parameters in try await resources.read(parameters.uri) }
        try await server.start(transport: transport)
        await server.waitUntilCompleted()
        await server.stop()
    }

    /// What the agent is told at initialisation, for its model to read once.
    static func instructions(own: MockdSession, url: URL) -> String {
        """
        mockd (\(url.absoluteString)) answers HTTP requests from files in a folder (mock_<path>_<method>.json) and \
        JSON route tables, for an app whose backend does not exist yet or must misbehave on purpose. This MCP \
        server has a session of its own: point the app at \(own.baseURL.absoluteString) (session \(own.id)). Every \
        tool acts in that session unless you name another (session) or the whole server ("global": true, only \
        when asked: it touches every session, a running UI test's too). create_mock and import write files \
        under the root, for the developer to review as a diff; add_stub answers from memory, in this session only. \
        Start with status; when a request misses, explain_request says why; read mockd://docs/naming before \
        writing files.
        """
    }

    /// Closes the session on the way out, waiting a few seconds at most: the agent has gone, and
    /// a mockd that does not answer must not keep this process alive.
    func close(_ session: String) async {
        _ = try? await client.send("DELETE", "/__mockd/sessions/" + ToolCalls.segment(session), timeout: 5)
    }
}
