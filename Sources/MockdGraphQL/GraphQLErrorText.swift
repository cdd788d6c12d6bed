#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
import GraphQL
import MockdCore

/// A GraphQLSwift error as mockd says it: a schema's, an app document's, or a request's.
extension GraphQLError {
    /// `line 3, column 1`, the error's first place; nil when it has none.
    var place: String? {
        locations.first.map { "line \($0.line), column \($0.column)" }
    }

    /// The message's first line: a parser's message goes on with the source around the place.
    var headline: String {
        Self.firstLine(message)
    }

    /// One diagnostic per message: the SDL checks give several in one error, a blank line apart.
    func diagnostics(_ severity: Diagnostic.Severity, file: String) -> [Diagnostic] {
        message.components(separatedBy: "\n\n").map { Diagnostic(severity, file: file, location: place, Self.firstLine($0)) }
    }

    private static func firstLine(_ message: String) -> String {
        String(message.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }
}
