import MCP
import MockdMCP
import Testing

@Suite struct ToolCatalogTests {
    @Test func names_AreUnique() {
        let names = ToolCatalog.tools.map(\.name)
        #expect(Set(names).count == names.count)
    }

    /// Each schema is an object whose required arguments are among its properties.
    @Test(arguments: ToolCatalog.tools.map(\.name))
    func schema_RequiresOnlyWhatItDeclares(name: String) throws {
        let tool = try #require(ToolCatalog.tools.first { $0.name == name })
        let schema = try #require(tool.inputSchema.objectValue)
        #expect(schema["type"] == "object")
        let properties = try #require(ToolCatalog.argumentNames(of: name))
        for required in schema["required"]?.arrayValue ?? [] {
            #expect(properties.contains(try #require(required.stringValue)))
        }
        #expect((tool.description ?? "").count > 20)
    }

    /// A global action is never the default, and its description says how to ask for it.
    @Test(arguments: ["reset", "set_scenario", "add_stub"])
    func globalActions_SayTheyNeedTheArgument(name: String) throws {
        let tool = try #require(ToolCatalog.tools.first { $0.name == name })
        #expect(tool.description?.contains(#""global": true"#) == true)
        #expect(ToolCatalog.argumentNames(of: name)?.contains("global") == true)
    }
}
