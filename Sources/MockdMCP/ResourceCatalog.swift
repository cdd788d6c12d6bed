import Foundation
import MCP
import MockdKit

/// The resources `mockd mcp` offers: what can answer (the sources listing), what the app sent
/// to this session (its journal), and the rules for the files an agent writes.
struct ResourceCatalog: Sendable {
    let admin: AdminCalls
    let own: MockdSession

    static let sourcesURI = "mockd://sources"
    static let journalURI = "mockd://journal"
    static let namingURI = "mockd://docs/naming"
    static let routesURI = "mockd://docs/routes"

    var resources: [Resource] {
        [
            Resource(
                name: "sources", uri: Self.sourcesURI,
                description:
                    "Everything that can answer, in resolution order: stubs, routes, files, operations, with scenario, status and origin.",
                mimeType: "application/json"),
            Resource(
                name: "journal", uri: Self.journalURI,
                description:
                    "The requests this MCP server's session received (session \(own.id)), oldest first, with the answers and their sources.",
                mimeType: "application/json"),
            Resource(
                name: "file naming rule", uri: Self.namingURI,
                description:
                    "How a request finds its mock file (mock_<path>_<method>.json, statuses, scenarios): read it before create_mock.",
                mimeType: "text/markdown"),
            Resource(
                name: "route format", uri: Self.routesURI,
                description:
                    "The route-table format (match, responses, sequences, templates, faults, resources) that add_stub and routes/*.json use.",
                mimeType: "text/markdown"),
        ]
    }

    func read(_ uri: String) async throws -> ReadResource.Result {
        let text: String
        do throws(ToolRefusal) {
            switch uri {
            case Self.sourcesURI: text = ToolResult.text(try await admin.get("/__mockd/sources"))
            case Self.journalURI:
                text = ToolResult.text(try await admin.get("/__mockd/requests", query: [URLQueryItem(name: "session", value: own.id)]))
            case Self.namingURI: text = AgentDocs.naming
            case Self.routesURI: text = AgentDocs.routes
            default: throw ToolRefusal("no resource \(uri); resources/list names them")
            }
        } catch {
            throw MCPError.invalidParams(error.message)
        }
        let type = uri.hasPrefix("mockd://docs/") ? "text/markdown" : "application/json"
        return ReadResource.Result(contents: [.text(text, uri: uri, mimeType: type)])
    }
}
