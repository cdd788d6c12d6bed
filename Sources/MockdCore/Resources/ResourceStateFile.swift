/// A resource's global state as `--state-dir` keeps it: one JSON file per copy, which records
/// the seed it grew from, so that a changed seed wins over a saved state. Making and reading the
/// bytes is here; the files are written and read by the executable.
///
/// ```json
/// {"mockd": "resource state", "version": 1, "resource": "/api/entries", "scenario": null,
///  "seededBy": "seed", "seed": "entries.json", "seedHash": "9c1e…", "idField": "id", "nextId": 4,
///  "items": [
/// {"id":1,…},
/// {"id":3,…}
/// ]}
/// ```
package enum ResourceStateFile {
    static let kind = "resource state"
    static let version = 1

    /// What a saved state file gives a resource at start.
    package enum Restoring: Sendable {
        /// Its items, to serve instead of the seed's.
        case restored(ResourceItems)
        /// The seed changed after the state was saved: the seed wins.
        case seedChanged
        /// The file is not a usable state: the place and what is wrong, as a configuration warning.
        case invalid(Diagnostic)
    }

    /// The file name of a copy's state: its path made readable (`api-v1-sleep-entries`), the
    /// scenario and seed when there are, and a hash of all three so no two copies share a name.
    package static func name(for key: ResourceStore.Key) -> String {
        let parts = key.resource.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        var name = slug(parts.first.map(String.init) ?? "")
        if parts.count > 1, !parts[1].isEmpty { name += "@" + slug(String(parts[1])) }
        if !key.seed.isEmpty { name += "+" + slug(key.seed) }
        var hasher = MockFileTable.Hasher64()
        for byte in key.resource.utf8 { hasher.feed(byte) }
        hasher.feed(0)
        for byte in key.seed.utf8 { hasher.feed(byte) }
        let hash = String(hasher.finished & 0xFFFF_FFFF, radix: 16)
        return (name.isEmpty ? "resource" : name) + "." + String(repeating: "0", count: 8 - hash.count) + hash + ".json"
    }

    /// Letters, digits, `_` and `.` kept; every other run of characters becomes one `-`.
    private static func slug(_ text: String) -> String {
        var result = ""
        for character in text.unicodeScalars {
            if character.isASCII,
                character.properties.isAlphabetic || ("0"..."9").contains(character) || character == "_" || character == "."
            {
                result.unicodeScalars.append(character)
            } else if !result.isEmpty, result.last != "-" {
                result += "-"
            }
        }
        while result.last == "-" { result.removeLast() }
        return result
    }

    /// A seed's hash as the file records it.
    static func hash(_ fingerprint: Int) -> String {
        let hex = String(UInt64(bitPattern: Int64(fingerprint)), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The file's bytes for `items`, the copy of `resource` that `seed` started ("" or a scenario).
    /// Items go one a line, as they are stored (no re-serializing).
    package static func encode(_ items: ResourceItems, of resource: Resource, seed: String) -> [UInt8] {
        let start = resource.seeds[seed]
        let head: [(key: String, value: JSONValue)] = [
            ("mockd", .string(kind)), ("version", .number(version)), ("resource", .string(resource.path)),
            ("scenario", resource.scenario.map { .string($0) } ?? .null), ("seededBy", .string(seed.isEmpty ? "seed" : "scenario " + seed)),
            ("seed", resource.seedFile.map { .string($0) } ?? .null), ("seedHash", .string(hash(start?.fingerprint ?? 0))),
            ("idField", .string(resource.idField)), ("nextId", items.integerIDs ? .number(items.nextInteger) : .null),
        ]
        var bytes = Array(JSONValue.object(head).serialized.utf8.dropLast())  // without its closing brace
        bytes += Array(#","items":["#.utf8)
        bytes.reserveCapacity(bytes.count + items.all.reduce(4) { $0 + $1.bytes.count + 2 })
        for (index, item) in items.all.enumerated() {
            bytes += index == 0 ? [UInt8(ascii: "\n")] : Array(",\n".utf8)
            bytes += item.bytes
        }
        bytes += Array("\n]}\n".utf8)
        return bytes
    }

    /// The items a saved state gives the copy of `resource` that `seed` started, if the file
    /// holds that copy's state and the seed is still the one it grew from. `file` is how
    /// warnings name it.
    package static func decode(_ bytes: [UInt8], for resource: Resource, seed: String, file: String) -> Restoring {
        func invalid(_ location: String?, _ message: String) -> Restoring {
            .invalid(
                Diagnostic(
                    .warning, file: file, location: location,
                    message + "; the resource starts from its seed (this file is replaced at its next change)"))
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            return invalid(error.location, "invalid JSON: \(error.message)")
        }
        guard case .object = value else {
            return invalid(nil, "expected a saved resource state (a JSON object), found \(SeedError.kind(value))")
        }
        guard value["mockd"] == .string(kind) else {
            return invalid("mockd", "expected \(JSONText.quoted(kind)), found \(shown(value["mockd"]))")
        }
        guard value["version"] == .number(version) else {
            return invalid("version", "expected \(version), found \(shown(value["version"]))")
        }
        let expected: [(String, JSONValue)] = [
            ("resource", .string(resource.path)), ("scenario", resource.scenario.map { .string($0) } ?? .null),
            ("seededBy", .string(seed.isEmpty ? "seed" : "scenario " + seed)), ("idField", .string(resource.idField)),
        ]
        for (field, wanted) in expected where value[field] != wanted {
            return invalid(field, "expected \(wanted.serialized) (the state of \(resource.path)), found \(shown(value[field]))")
        }
        guard let start = resource.seeds[seed] else { return invalid("seededBy", "\(resource.path) has no seed \(JSONText.quoted(seed))") }
        guard case .string(let savedHash)? = value["seedHash"] else {
            return invalid("seedHash", "expected the seed's hash, found \(shown(value["seedHash"]))")
        }
        if savedHash != hash(start.fingerprint) { return .seedChanged }
        var nextID: Int?
        switch value["nextId"] {
        case .null?: nextID = nil
        case .number(let text)? where Int(text) != nil: nextID = Int(text)
        case let other: return invalid("nextId", "expected an integer or null, found \(shown(other))")
        }
        guard let list = value["items"] else { return invalid("items", "missing") }
        switch ResourceItems.seed(list, idField: resource.idField, fingerprint: start.fingerprint) {
        case .success(let items):
            return .restored(items.continuing(integerIDs: nextID != nil, nextInteger: nextID ?? 1))
        case .failure(let problem):
            return invalid("items" + (problem.location ?? ""), problem.message)
        }
    }

    private static func shown(_ value: JSONValue?) -> String {
        value.map(SeedError.kind) ?? "nothing"
    }
}
