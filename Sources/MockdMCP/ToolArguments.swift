package import MCP

/// A tool call's arguments, read by name with the type each tool's schema promises. A wrong
/// type or a missing argument is a `ToolRefusal` naming the argument, which the agent sees as a
/// tool error it can correct; an argument no tool of that name reads is refused too, as the
/// admin API refuses unknown keys (a misspelt `sesion` would otherwise act on the agent's own
/// session and look as if it worked).
package struct ToolArguments: Sendable {
    package let values: [String: Value]

    package init(_ values: [String: Value]?, known: [String]) throws(ToolRefusal) {
        self.values = values ?? [:]
        if let unknown = self.values.keys.sorted().first(where: { !known.contains($0) }) {
            let list = known.isEmpty ? "none" : known.sorted().joined(separator: ", ")
            throw ToolRefusal("unknown argument \"\(unknown)\"; this tool takes: \(list)")
        }
    }

    /// A string argument, or nil when absent or null.
    package func string(_ name: String) throws(ToolRefusal) -> String? {
        switch values[name] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw ToolRefusal("\"\(name)\" must be a string")
        }
    }

    package func requiredString(_ name: String) throws(ToolRefusal) -> String {
        guard let text = try string(name), !text.isEmpty else { throw ToolRefusal("\"\(name)\" is required") }
        return text
    }

    /// A whole number; a double without a fraction (some clients send 5.0) counts as one.
    package func int(_ name: String) throws(ToolRefusal) -> Int? {
        switch values[name] {
        case nil, .null?: return nil
        case .int(let number)?: return number
        case .double(let number)? where number.rounded() == number && abs(number) < 1e15: return Int(number)
        default: throw ToolRefusal("\"\(name)\" must be a whole number")
        }
    }

    package func bool(_ name: String) throws(ToolRefusal) -> Bool? {
        switch values[name] {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        default: throw ToolRefusal("\"\(name)\" must be true or false")
        }
    }

    /// An argument that must be a JSON object, as it was sent.
    package func object(_ name: String) throws(ToolRefusal) -> [String: Value]? {
        switch values[name] {
        case nil, .null?: return nil
        case .object(let members)?: return members
        default: throw ToolRefusal("\"\(name)\" must be a JSON object")
        }
    }
}

/// Why a tool did nothing: the agent's mistake, or mockd's own message when mockd refused.
package struct ToolRefusal: Error, Equatable, Sendable {
    package let message: String

    package init(_ message: String) {
        self.message = message
    }
}
