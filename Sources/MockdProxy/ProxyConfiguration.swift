#if canImport(FoundationEssentials)
    package import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    package import Foundation
#endif

/// Where misses are forwarded (`--proxy URL`) and whether answers are saved (`--record`).
package struct ProxyConfiguration: Sendable {
    /// `http` or `https`, with a host; a path (`https://api.example.com/v2`) is put before every forwarded path.
    package var upstream: URL
    /// `--proxy-timeout`, 30 s by default: the whole upstream exchange (connect, send, answer)
    /// must finish within it, or the client gets a 504.
    package var timeout: Duration = ProxyConfiguration.defaultTimeout
    package static let defaultTimeout: Duration = .seconds(30)
    package var record: Bool = false
    package var recordOverwrite: Bool = false
    /// Header names that make a recorded answer a route, besides the recorder's own list (`--record-headers`).
    package var recordHeaders: [String] = []
    /// An upstream body larger than this is not relayed (502): mockd holds each answer in memory.
    var maxResponseBytes: Int = 64 * 1024 * 1024

    package init(upstream: URL) {
        self.upstream = upstream
    }

    /// Checks a `--proxy` value: an absolute `http://` or `https://` URL with a host, no query or fragment.
    package init(upstream text: String) throws(ProxyConfigurationError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw ProxyConfigurationError("--proxy: '\(text)' is not a URL; expected e.g. https://api.example.com")
        }
        guard scheme == "http" || scheme == "https" else {
            throw ProxyConfigurationError("--proxy: the scheme must be http or https, found '\(scheme)' in '\(text)'")
        }
        guard let host = url.host, !host.isEmpty else {
            throw ProxyConfigurationError("--proxy: '\(text)' has no host; expected e.g. https://api.example.com")
        }
        guard url.query == nil, url.fragment == nil else {
            throw ProxyConfigurationError(
                "--proxy: '\(text)' has a query or fragment; give only scheme, host, port and an optional base path")
        }
        self.upstream = url
    }

    /// `scheme://host[:port]` plus the base path without a trailing slash, for building URLs and messages.
    var upstreamPrefix: String {
        var prefix = upstream.absoluteString
        if let query = prefix.firstIndex(where: { $0 == "?" || $0 == "#" }) { prefix = String(prefix[..<query]) }
        while prefix.hasSuffix("/") { prefix.removeLast() }
        return prefix
    }
}

package struct ProxyConfigurationError: Error, CustomStringConvertible, Sendable {
    package var description: String
    package init(_ description: String) { self.description = description }
}
