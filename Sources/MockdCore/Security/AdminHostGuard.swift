/// Who may use the admin API, judged by the request's `Host`.
///
/// A web page can make a browser send requests to `127.0.0.1:8080` under a name the attacker
/// controls (DNS rebinding): the browser then treats mockd's answers as the attacker's own
/// and lets the page read the journal. Such requests carry the attacker's name in `Host`, so
/// the admin API answers only names that cannot be rebound that way: loopback names, IP
/// literals, single-label names (a compose service such as `mockd`), and the names given
/// with `--allowed-hosts`.
package struct AdminHostGuard: Sendable {
    /// Lower-cased, without ports.
    package let allowedHosts: Set<String>

    package init(allowedHosts: [String] = []) {
        self.allowedHosts = Set(allowedHosts.map { Self.hostName(of: $0).lowercased() }.filter { !$0.isEmpty })
    }

    /// A request without `Host` (HTTP/1.0 allows it) names no host this rule lets in, so it is
    /// refused like an unknown name: the guard lets in names, not their absence. Every client
    /// sends one (curl and `mockd health` also on HTTP/1.0); the mocks still answer without it.
    package func allows(host: String?) -> Bool {
        guard let host else { return false }
        let name = Self.hostName(of: host).lowercased()
        if name.isEmpty { return false }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        if Self.isIPLiteral(name) { return true }
        if !name.contains(".") { return true }
        // A fully qualified name with its root dot is the same name.
        let bare = name.hasSuffix(".") ? String(name.dropLast()) : name
        return allowedHosts.contains(bare) || allowedHosts.contains(name)
    }

    /// The 403 for a refused host, or for a request that named none.
    static func refusal(host: String?) -> ErrorAnswer {
        guard let host else {
            return ErrorAnswer(
                403,
                "the admin API answers only requests that name their Host (it guards against DNS rebinding by that name); "
                    + "send Host: 127.0.0.1, as HTTP/1.1 requires and curl does")
        }
        let message =
            "the admin API does not answer requests for Host \(host) (a web page could be reading it through DNS rebinding); "
            + "allow the name with --allowed-hosts \(hostName(of: host)) (env MOCKD_ALLOWED_HOSTS)"
        return ErrorAnswer(403, message)
    }

    /// `name:port`, `[v6]:port`, `[v6]` → the name or address alone.
    static func hostName(of host: String) -> String {
        let text = String(host[...].trimming(.whitespace))
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return text }
            return String(text[text.index(after: text.startIndex)..<close])
        }
        if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon {
            return String(text[..<colon])
        }
        return text
    }

    /// Dotted-quad IPv4 or an IPv6 address (anything with a colon that got this far).
    static func isIPLiteral(_ name: String) -> Bool {
        if name.contains(":") {
            return name.utf8.allSatisfy {
                ASCII.isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "%")
            }
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                    && Int(part)! <= 255
            }
    }
}
