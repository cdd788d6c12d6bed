/// The methods a route may name.
package enum HTTPMethods {
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
