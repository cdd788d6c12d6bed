/// The methods a route may name, and the one rule that lets a request of one method be answered
/// by what answers another.
package enum HTTPMethods {
    /// What else answers a request of `method`: HEAD is answered by whatever answers GET (RFC 9110
    /// §9.3.2: the same head, no body; libmicrohttpd leaves the body out); nil for every other
    /// method. Files, routes, operations, the admin API and the 404 report all follow this rule.
    @inline(__always)
    static func alsoAnsweredAs(_ method: String) -> String? {
        method == "HEAD" ? "GET" : nil
    }

    /// `method` is answered by what answers `answering` (itself, or HEAD by GET).
    @inline(__always)
    package static func answers(_ method: String, as answering: String) -> Bool {
        method == answering || alsoAnsweredAs(method) == answering
    }

    /// The IANA HTTP method registry, and PURGE (caches): the common methods first, so a typo
    /// is matched to them on a tie.
    package static let registered: [String] =
        MockFileName.knownMethods + [
            "ACL", "BASELINE-CONTROL", "BIND", "CHECKIN", "CHECKOUT", "COPY", "LABEL", "LINK", "LOCK", "MERGE", "MKACTIVITY",
            "MKCALENDAR", "MKCOL", "MKREDIRECTREF", "MKWORKSPACE", "MOVE", "ORDERPATCH", "PRI", "PROPFIND", "PROPPATCH", "PURGE",
            "QUERY", "REBIND", "REPORT", "SEARCH", "UNBIND", "UNCHECKOUT", "UNLINK", "UNLOCK", "UPDATE", "UPDATEREDIRECTREF",
            "VERSION-CONTROL",
        ]
}
