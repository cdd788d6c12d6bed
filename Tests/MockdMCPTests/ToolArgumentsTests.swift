import MCP
import MockdMCP
import Testing

@Suite struct ToolArgumentsTests {
    @Test func unknownArgument_IsRefusedWithTheKnownOnes() {
        #expect(throws: ToolRefusal("unknown argument \"sesion\"; this tool takes: global, session")) {
            try ToolArguments(["sesion": "s1"], known: ["session", "global"])
        }
    }

    @Test func noArguments_AreNone() throws {
        let arguments = try ToolArguments(nil, known: ["session"])
        #expect(try arguments.string("session") == nil)
    }

    @Test func typedReads_RefuseTheWrongType() throws {
        let arguments = try ToolArguments(["count": "3", "global": 1, "route": [1]], known: ["count", "global", "route"])
        #expect(throws: ToolRefusal("\"count\" must be a whole number")) { try arguments.int("count") }
        #expect(throws: ToolRefusal("\"global\" must be true or false")) { try arguments.bool("global") }
        #expect(throws: ToolRefusal("\"route\" must be a JSON object")) { try arguments.object("route") }
    }

    @Test func wholeDouble_CountsAsANumber() throws {
        let arguments = try ToolArguments(["wait": 5.0, "count": 1.5], known: ["wait", "count"])
        #expect(try arguments.int("wait") == 5)
        #expect(throws: ToolRefusal("\"count\" must be a whole number")) { try arguments.int("count") }
    }

    @Test func requiredString_RefusesMissingAndEmpty() throws {
        let arguments = try ToolArguments(["path": ""], known: ["path", "method"])
        #expect(throws: ToolRefusal("\"path\" is required")) { try arguments.requiredString("path") }
        #expect(throws: ToolRefusal("\"method\" is required")) { try arguments.requiredString("method") }
    }

    @Test func null_IsAbsent() throws {
        let arguments = try ToolArguments(["scenario": .null], known: ["scenario"])
        #expect(try arguments.string("scenario") == nil)
    }
}
