import Logging
import MockdCore

// Log lines `serve` writes in more than one place. Each is a fixed message with its values in
// `mockd.*` fields, so a log search or a JSON reader finds them by message and reads the fields.

extension Logger {
    /// Each problem on a line of its own, at its severity: `configuration problem` with the file,
    /// the place inside it when there is one, and what is wrong.
    func log(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            log(level: diagnostic.severity == .error ? .error : .warning, "configuration problem", metadata: diagnostic.logFields)
        }
    }
}

extension Diagnostic {
    /// `mockd.file`, `mockd.location` (when there is one) and `mockd.problem`.
    var logFields: Logger.Metadata {
        var fields: Logger.Metadata = ["mockd.file": "\(file)", "mockd.problem": "\(message)"]
        if let location { fields["mockd.location"] = "\(location)" }
        return fields
    }
}
