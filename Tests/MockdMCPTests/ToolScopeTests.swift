import MCP
import MockdMCP
import Testing

@Suite struct ToolScopeTests {
    static func scope(_ values: [String: Value]) throws(ToolRefusal) -> ToolScope {
        try ToolScope.of(try ToolArguments(values, known: ["session", "global"]), ownSession: "mcp-1")
    }

    @Test func nothingSaid_IsTheOwnSession() throws {
        #expect(try Self.scope([:]) == .session("mcp-1"))
        #expect(try Self.scope(["global": false]) == .session("mcp-1"))
    }

    @Test func namedSession_IsThatSession() throws {
        #expect(try Self.scope(["session": "sim-3"]) == .session("sim-3"))
    }

    @Test func globalTrue_IsTheWholeServer() throws {
        #expect(try Self.scope(["global": true]) == .global)
        #expect(try Self.scope(["global": true]).session == nil)
    }

    @Test func sessionAndGlobal_AreRefused() {
        #expect(throws: ToolRefusal.self) { try Self.scope(["session": "sim-3", "global": true]) }
    }
}
