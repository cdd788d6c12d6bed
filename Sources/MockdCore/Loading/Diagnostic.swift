/// One problem found in the configuration: which file, where inside it, and what is wrong.
///
/// Rendered as `routes/auth.json: routes[2].response.status: expected an integer 100-599, found "ok"`.
package struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    package enum Severity: String, Sendable {
        /// mockd cannot serve this configuration (start fails, a reload keeps the last good one).
        case error
        /// Served anyway, but probably not what the user meant (`mockd check` still fails on it).
        case warning
    }

    package var severity: Severity
    /// The file, as a path the user can open (the root or routes folder as given, plus the relative path).
    package var file: String
    /// Where inside the file: a JSON path (`routes[2].response.status`) or `line 3, column 7`.
    package var location: String?
    package var message: String

    package init(_ severity: Severity = .error, file: String, location: String? = nil, _ message: String) {
        self.severity = severity
        self.file = file
        self.location = location
        self.message = message
    }

    package var description: String {
        (severity == .warning ? "warning: " : "") + place
    }

    /// `file: location: message`: the description without its `warning: `.
    package var place: String {
        if let location { return "\(file): \(location): \(message)" }
        return "\(file): \(message)"
    }
}

/// Thrown when a configuration has errors; carries every one of them, not just the first.
package struct ConfigurationError: Error, CustomStringConvertible {
    package var diagnostics: [Diagnostic]

    package init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    package var description: String {
        let errors = diagnostics.filter { $0.severity == .error }
        let header = "\(errors.count) configuration error\(errors.count == 1 ? "" : "s"):"
        return ([header] + diagnostics.map { "  " + $0.description }).joined(separator: "\n")
    }
}
