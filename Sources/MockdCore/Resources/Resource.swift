#if canImport(FoundationEssentials)
    import FoundationEssentials  // UUID, without ICU (Linux)
#else
    import Foundation
#endif

/// A collection an app writes to and reads back (`{"resource": "/api/entries", "seed": …}` in a
/// route table): GET lists it, POST adds to it, GET/PUT/PATCH/DELETE of `/api/entries/{id}` act
/// on one item. The definition and its seeds are part of the snapshot; what requests changed
/// lives in `ResourceStore`, outside it, so that a reload keeps it.
package struct Resource: Sendable {
    /// The collection's path, without a trailing slash (`/api/v1/sleep/entries`).
    package let path: String
    /// The field that identifies an item (`id` unless the table says otherwise).
    package let idField: String
    /// Answers only in this scenario when set, like a route's `scenario`.
    package let scenario: String?
    /// Where it is declared (`routes/x.json#0`).
    package let source: String
    /// The seed file, relative to the root (nil: the collection starts empty).
    package let seedFile: String?
    /// The starting items: "" for the seed file, a scenario's name for its overlay of it.
    package let seeds: [String: ResourceItems]
    package let delay: Delay?

    /// Where its answers say they came from.
    package var origin: Origin { .resource(source) }
    /// Survives a reload while the table keeps the path and scenario: state is kept under it.
    package var identity: String { path + "|" + (scenario ?? "") }

    package init(
        path: String, idField: String, scenario: String?, source: String, seedFile: String?, seeds: [String: ResourceItems],
        delay: Delay? = nil
    ) {
        self.path = path
        self.idField = idField
        self.scenario = scenario
        self.source = source
        self.seedFile = seedFile
        self.seeds = seeds
        self.delay = delay
    }

    /// Which seed a request in `scenario` starts from: that scenario's overlay, else the seed file.
    func seedName(in scenario: String) -> String {
        scenario != Scenario.default && seeds[scenario] != nil ? scenario : ""
    }
}

/// One item, with its JSON text made once (when it is seeded or written), so a read only copies bytes.
package struct ResourceItem: Sendable {
    package let value: JSONValue
    package let bytes: [UInt8]

    init(_ value: JSONValue) {
        self.value = value
        self.bytes = Array(value.serialized.utf8)
    }
}

/// A collection's items in insertion order, by id. A value type: a session's copy starts as
/// the seed and shares its storage until the first write changes it.
package struct ResourceItems: Sendable {
    /// Ids as their text (`3`, `a1b2`), in insertion order.
    package private(set) var order: [String] = []
    package private(set) var items: [String: ResourceItem] = [:]
    /// New ids are integers (max + 1) when every seeded id is one (or there are none), else UUIDs.
    package let integerIDs: Bool
    /// The integer a POST without an id gets next.
    private(set) var nextInteger: Int
    /// Tells seeds apart across reloads and restarts (a hash of the seed file's bytes, the same
    /// in every run): a changed seed file resets the state it seeded, and wins over a saved one.
    let fingerprint: Int

    package var count: Int { order.count }

    /// The items of a seed, or what is wrong with it: `[3]: missing "id"`, `[4].id: 7 is also the id of [1]`.
    static func seed(_ value: JSONValue, idField: String, fingerprint: Int) -> Result<ResourceItems, SeedError> {
        guard case .array(let elements) = value else {
            return .failure(SeedError(location: nil, message: "expected a JSON array of objects, found \(SeedError.kind(value))"))
        }
        var keys: [String] = []
        keys.reserveCapacity(elements.count)
        var allIntegers = true
        var maximum = 0
        for (index, element) in elements.enumerated() {
            guard case .object = element else {
                return .failure(SeedError(location: "[\(index)]", message: "expected an object, found \(SeedError.kind(element))"))
            }
            guard let id = element[idField] else {
                return .failure(SeedError(location: "[\(index)]", message: "missing \(JSONText.quoted(idField)), the resource's id field"))
            }
            guard let key = Self.key(id) else {
                return .failure(
                    SeedError(location: "[\(index)].\(idField)", message: "expected a string or an integer id, found \(SeedError.kind(id))")
                )
            }
            if case .number = id, let integer = Int(key) { maximum = max(maximum, integer) } else { allIntegers = false }
            keys.append(key)
        }
        var items = ResourceItems(integerIDs: allIntegers, nextInteger: maximum + 1, fingerprint: fingerprint)
        items.items.reserveCapacity(elements.count)
        var firstIndex: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            if let first = firstIndex[keys[index]] {
                return .failure(
                    SeedError(location: "[\(index)].\(idField)", message: "\(keys[index]) is also the id of [\(first)]; ids must be unique")
                )
            }
            firstIndex[keys[index]] = index
            items.order.append(keys[index])
            items.items[keys[index]] = ResourceItem(element)
        }
        return .success(items)
    }

    init(integerIDs: Bool, nextInteger: Int, fingerprint: Int) {
        self.integerIDs = integerIDs
        self.nextInteger = nextInteger
        self.fingerprint = fingerprint
    }

    /// The same items, new ids made as a saved state says: integers from `nextInteger` on (never
    /// below what the items need), or UUIDs.
    func continuing(integerIDs: Bool, nextInteger: Int) -> ResourceItems {
        var copy = ResourceItems(integerIDs: integerIDs, nextInteger: max(nextInteger, self.nextInteger), fingerprint: fingerprint)
        copy.order = order
        copy.items = items
        return copy
    }

    /// An id as the text a URL names it by: integers without a sign or leading zeros, strings
    /// as they are; nil for anything else (objects, fractions, booleans).
    static func key(_ id: JSONValue) -> String? {
        switch id {
        case .string(let text) where !text.isEmpty: text
        case .number(let text): Int(text).map(String.init)
        default: nil
        }
    }

    subscript(key: String) -> ResourceItem? { items[key] }

    /// Every item in order.
    var all: [ResourceItem] { order.compactMap { items[$0] } }

    /// A new id for a POST without one.
    mutating func newID() -> JSONValue {
        if integerIDs {
            while items[String(nextInteger)] != nil { nextInteger += 1 }
            defer { nextInteger += 1 }
            return .number(nextInteger)
        }
        return .string(UUID().uuidString.lowercased())
    }

    /// Adds an item (its key must be new).
    mutating func append(_ item: ResourceItem, key: String) {
        if integerIDs, let integer = Int(key), integer >= nextInteger { nextInteger = integer + 1 }
        order.append(key)
        items[key] = item
    }

    /// Replaces an existing item in its place.
    mutating func replace(_ item: ResourceItem, key: String) {
        items[key] = item
    }

    mutating func remove(key: String) -> Bool {
        guard items.removeValue(forKey: key) != nil else { return false }
        if let index = order.firstIndex(of: key) { order.remove(at: index) }
        return true
    }
}

/// What is wrong with a seed, with its place inside the seed file.
struct SeedError: Error {
    let location: String?
    let message: String

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string(let text): JSONText.quoted(text)
        default: value.serialized
        }
    }
}

/// The snapshot's resources, found by path: one check when there are none.
package struct ResourceIndex: Sendable {
    package let all: [Resource]
    /// Collection path → its resources, scenario-specific ones first.
    private let byPath: [String: [Resource]]

    init(_ resources: [Resource] = []) {
        all = resources
        var byPath: [String: [Resource]] = [:]
        for resource in resources { byPath[resource.path, default: []].append(resource) }
        self.byPath = byPath
    }

    package var isEmpty: Bool { all.isEmpty }

    /// The resource a request path names, and the item's id when it names one
    /// (`/api/entries` → (entries, nil), `/api/entries/3` → (entries, "3")), for `scenario`.
    func find(_ path: String, scenario: String) -> (Resource, id: String?)? {
        if let found = pick(byPath[path], scenario) { return (found, nil) }
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
        let id = path[path.index(after: slash)...]
        guard !id.isEmpty, let found = pick(byPath[String(path[..<slash])], scenario) else { return nil }
        return (found, String(id))
    }

    private func pick(_ resources: [Resource]?, _ scenario: String) -> Resource? {
        guard let resources else { return nil }
        return resources.first { $0.scenario == scenario } ?? resources.first { $0.scenario == nil }
    }

    /// The resource declared at `path` for `scenario` (nil: the one without a scenario).
    package func resource(path: String, scenario: String?) -> Resource? {
        byPath[path]?.first { $0.scenario == scenario }
    }
}
