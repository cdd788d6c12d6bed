/// Where a tool acts: the MCP server's own session unless the agent names another, and the
/// whole server only when it says `"global": true`. A global reset or scenario touches every
/// session (a running UI test's among them), so it is never what an agent gets by leaving an
/// argument out.
package enum ToolScope: Equatable, Sendable {
    case session(String)
    case global

    /// The scope `arguments` ask for, given the MCP server's own session.
    package static func of(_ arguments: ToolArguments, ownSession: String) throws(ToolRefusal) -> ToolScope {
        let session = try arguments.string("session")
        let global = try arguments.bool("global") ?? false
        switch (session, global) {
        case (let named?, true):
            throw ToolRefusal("\"session\": \"\(named)\" and \"global\": true contradict each other; give one")
        case (_, true): return .global
        case (let named?, false): return .session(named)
        case (nil, false): return .session(ownSession)
        }
    }

    /// The session id, or nil for the whole server.
    package var session: String? {
        if case .session(let id) = self { return id }
        return nil
    }
}
