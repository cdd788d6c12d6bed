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
    /// `lines`: the file was not the SDL parsed (introspection JSON written as SDL), and each
    /// SDL line's place in the file is this, said instead of the line and column.
    func diagnostics(_ severity: Diagnostic.Severity, file: String, lines: [String]? = nil) -> [Diagnostic] {
        var location = place
        if let lines, let line = locations.first?.line {
            location = lines.indices.contains(line - 1) ? lines[line - 1] : nil
        }
        var messages = message.components(separatedBy: "\n\n")
        // A syntax error's message goes on with the source around its place, no message of its own.
        if message.hasPrefix("Syntax Error") { messages = Array(messages.prefix(1)) }
        return messages.map { text in
            var headline = Self.firstLine(text)
            // `Syntax Error schema.json (3:15) Expected Name`: that line and column are the written
            // SDL's, which the user never saw; the place said is the JSON's.
            if lines != nil, headline.hasPrefix("Syntax Error "), let end = headline.firstRange(of: ") ") {
                headline = "Syntax Error: " + headline[end.upperBound...]
            }
            return Diagnostic(severity, file: file, location: location, headline)
        }
    }

    private static func firstLine(_ message: String) -> String {
        String(message.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }
}
