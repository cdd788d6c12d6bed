import Foundation

/// Where misses are forwarded (`--proxy URL`) and whether answers are saved (`--record`).
public struct ProxyConfiguration: Sendable {
    public var upstream: URL
    /// `--proxy-timeout`, 30 s by default.
    public var timeout: Duration = .seconds(30)
    public var record: Bool = false
    public var recordOverwrite: Bool = false

    public init(upstream: URL) {
        self.upstream = upstream
    }
}
