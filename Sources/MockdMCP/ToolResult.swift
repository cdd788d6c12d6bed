import Foundation
import MCP

/// A tool's answer as MCP carries it: the JSON as text (what most agents read) and as
/// structured content, or a tool error (`isError`) with the message, never a protocol error: an
/// agent can read a tool error and try again.
enum ToolResult {
    static func success(_ value: Value) -> CallTool.Result {
        // Structured content must be an object; a list is wrapped so both forms say the same.
        let object: Value = value.objectValue != nil ? value : ["result": value]
        let structured: Value? = object
        return CallTool.Result(content: [.text(text: text(object), annotations: nil, _meta: nil)], structuredContent: structured)
    }

    static func failure(_ refusal: ToolRefusal) -> CallTool.Result {
        CallTool.Result(content: [.text(text: refusal.message, annotations: nil, _meta: nil)], isError: true)
    }

    /// Compact JSON with keys in order, so the same answer reads the same every time.
    static func text(_ value: Value) -> String {
        String(decoding: (try? AdminCalls.compact.encode(value)) ?? Data(), as: UTF8.self)
    }
}
