/// The push payloads a snapshot holds: `pushes/<name>.apns` under the root, and per scenario
/// `scenarios/<scenario>/pushes/<name>.apns`, which replaces the file of the same name while
/// that scenario is active, as a scenario's mock files do.
package struct PushTable: Sendable {
    package private(set) var base: [String: PushPayload] = [:]
    package private(set) var overlays: [String: [String: PushPayload]] = [:]

    package init() {}

    /// The folder under the root (or under a scenario's folder) that holds payloads.
    static let folder = "pushes"
    static let fileExtension = ".apns"

    /// The payload `name` as `scenario` sees it: its overlay's, else the base one.
    package func payload(_ name: String, scenario: String) -> PushPayload? {
        overlays[scenario]?[name] ?? base[name]
    }

    /// Every name, sorted (overlays' too): what the dashboard and a refusal list.
    package var names: [String] {
        Set(base.keys).union(overlays.values.flatMap(\.keys)).sorted()
    }

    package var isEmpty: Bool { base.isEmpty && overlays.isEmpty }

    mutating func insert(_ payload: PushPayload, scenario: String?) {
        if let scenario {
            overlays[scenario, default: [:]][payload.name] = payload
        } else {
            base[payload.name] = payload
        }
    }

    /// `pushes/<name>.apns` → (nil, name); `scenarios/<s>/pushes/<name>.apns` → (s, name); any
    /// other path → nil. Payloads sit right in the folder, not below it.
    static func payloadFile(_ relativePath: String) -> (scenario: String?, name: String)? {
        guard relativePath.hasSuffix(fileExtension) else { return nil }
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        let fileName = parts.last.map { String($0.dropLast(fileExtension.count)) } ?? ""
        guard !fileName.isEmpty else { return nil }
        if parts.count == 2, parts[0] == folder { return (nil, fileName) }
        if parts.count == 4, parts[0] == Substring(MockDataLoader.scenariosFolder), !parts[1].isEmpty, parts[2] == folder {
            return (String(parts[1]), fileName)
        }
        return nil
    }
}
