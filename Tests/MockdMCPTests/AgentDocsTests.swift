import Foundation
import MockdMCP
import Testing

/// The resources `mockd mcp` serves are copies scripts/embed-agent-docs.sh made of README.md's
/// naming sections and docs/ROUTES.md; they must be the same text.
@Suite struct AgentDocsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// One README section, from its heading to the next `## `, as the script's awk cuts it.
    static func section(_ heading: String, of text: String) -> String {
        var lines: [Substring] = []
        var keeping = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "## \(heading)" {
                keeping = true
            } else if keeping && line.hasPrefix("## ") {
                break
            }
            if keeping { lines.append(line) }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    @Test func routes_IsDocsRoutes() throws {
        #expect(AgentDocs.routes == (try Self.read("docs/ROUTES.md")), "stale: run scripts/embed-agent-docs.sh")
    }

    @Test func naming_IsTheReadmeSections() throws {
        let readme = try Self.read("README.md")
        let expected = Self.section("Files by convention", of: readme) + Self.section("Scenarios", of: readme)
        #expect(AgentDocs.naming == expected, "stale: run scripts/embed-agent-docs.sh")
    }
}
