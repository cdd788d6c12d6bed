#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
import MockdCore

/// Which answers are recorded, and as what.
extension Recorder {
    static func notRecordable(_ request: MockRequest, _ response: BuiltResponse) -> String? {
        if request.method == "HEAD" { return "HEAD is answered from the GET mock" }
        // A route naming it would make the next load fail.
        if !HTTPMethods.registered.contains(request.method) { return "\(request.method) is not a registered HTTP method" }
        if response.status < 200 { return "an informational \(response.status) is not an answer" }
        if response.status == 304 { return "304 Not Modified only makes sense for a conditional request" }
        if response.status == 206 { return "206 Partial Content answers one range, not the resource" }
        return nil
    }

    /// Headers an app reads, which make a 200 JSON answer more than its body: kept in a route,
    /// not a mock file. Rate limits come as `RateLimit-*` (the IETF draft) or `X-RateLimit-*`.
    private static let meaningfulHeaders: Set<String> = [
        "location", "set-cookie", "www-authenticate", "content-disposition", "retry-after", "link", "etag",
        "ratelimit", "ratelimit-policy", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset",
    ]

    /// A header the app may read (above, any `X-` header but mockd's own, or one `--record-headers` names).
    func isMeaningful(_ name: String) -> Bool {
        let lower = name.lowercased()
        if Self.transferHeaders.contains(lower) { return false }
        return Self.meaningfulHeaders.contains(lower) || lower.hasPrefix("x-") || keptHeaders.contains(lower)
    }
    /// Headers a recorded route does not repeat: about that one transfer, not the resource.
    static var transferHeaders: Set<String> { HTTPHeader.transferNames }

    static func isJSONMediaType(_ contentType: String) -> Bool {
        let media = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimming(.whitespace).lowercased() } ?? ""
        return media == "application/json" || media == "text/json" || (media.hasPrefix("application/") && media.hasSuffix("+json"))
    }

    /// The body, byte for byte as the upstream sent it (after any Content-Encoding was undone),
    /// when the answer belongs in a `mock_…json` file, else nil: a replay gives the app what it saw.
    func mockFileBody(_ request: MockRequest, path: String, _ response: BuiltResponse) -> (name: String, bytes: Data)? {
        guard response.status == 200, !response.body.isEmpty else { return nil }
        if response.headers.contains(where: { isMeaningful($0.name) }) { return nil }
        let contentType = response.headers.first(named: "Content-Type")
        if let contentType, !Self.isJSONMediaType(contentType) { return nil }
        // Not valid UTF-8 (the parser would replace the bad bytes): not rewritten, kept as a route with its bytes.
        guard String(validating: response.body, as: UTF8.self) != nil,
            let value = try? JSONParser.parse(response.body)
        else { return nil }
        // Without a Content-Type, only an object or an array counts as JSON ("42" may be text).
        if contentType == nil, !value.isContainer { return nil }
        let name = MockFileName.forRequest(method: request.method, path: path)
        guard Self.isSafeFileName(name),
            case .mock(let method, _) = MockFileName.parse(name), method == request.method.uppercased()
        else { return nil }
        let bytes = Data(response.body)
        // The loader checks mock files with JSONParser.validate: write only what it accepts.
        guard bytes.withUnsafeBytes({ JSONParser.validate($0) }) == nil else { return nil }
        return (name, bytes)
    }
}
