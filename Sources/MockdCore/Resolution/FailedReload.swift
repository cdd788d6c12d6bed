/// Reloads are failing, so mockd serves the configuration it loaded before. Without saying so,
/// a new file that is there gets a 404 telling the user to create it; with this, every 404 and
/// every answer's `X-Mockd-Warning` names the error, since when, and what is served instead.
package struct FailedReload: Sendable {
    /// The first failed reload since the last good one (seconds since 1970).
    package let since: Double
    /// When the configuration still served was loaded (seconds since 1970).
    package let servingSince: Double
    /// The latest failed reload's errors, each with its file and place.
    package let errors: [String]
    /// One header line, built once for every answer.
    package let warning: String

    package init(since: Double, servingSince: Double, errors: [String]) {
        self.since = since
        self.servingSince = servingSince
        self.errors = errors
        let more = errors.count > 1 ? " (and \(errors.count - 1) more error\(errors.count == 2 ? "" : "s"))" : ""
        let text =
            "reload failed since \(RequestJournal.Entry.iso8601(since)): \(errors.first ?? "unknown error")\(more); "
            + "serving the last good configuration, loaded \(RequestJournal.Entry.iso8601(servingSince))"
        // A header value is one line of visible characters.
        warning = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? " " : Character($0) })
    }

    /// What the 404 report says, for the people and tools that read it.
    var json: JSONValue {
        .object([
            ("since", .string(RequestJournal.Entry.iso8601(since))),
            ("servingSince", .string(RequestJournal.Entry.iso8601(servingSince))),
            ("errors", .array(errors.map { .string($0) })),
        ])
    }

    /// The 404's hint: the missing file may well be there, waiting for the error to be fixed.
    func hint(file: String) -> String {
        "a reload failed (\(errors.first ?? "unknown error")), so mockd still serves the last good configuration, loaded "
            + "\(RequestJournal.Entry.iso8601(servingSince)); files added or changed since are not served until the error is fixed "
            + "(mockd reloads on the next change, or POST /__mockd/reload). If \(file) does not exist, create it"
    }
}
