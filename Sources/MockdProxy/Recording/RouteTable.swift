#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
import MockdCore

/// `recorded.json` as read from disk: the whole document, kept in its order, and its routes.
/// Written back as `JSONValue.prettyPrinted`: members, order and numbers as written are kept;
/// white space and string escapes are normalised.
struct RouteTable {
    struct Problem: Error { var message: String }

    /// The top-level object's members; "routes" among them.
    var members: [(key: String, value: JSONValue)]
    var routes: [JSONValue]

    static func read(_ file: String) -> Result<RouteTable, Problem> {
        guard FileManager.default.fileExists(atPath: file) else {
            return .success(RouteTable(members: [], routes: []))
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            return .failure(Problem(message: "\(file): cannot read it; not recording until it can be read"))
        }
        // The parser would replace bytes that are not UTF-8, and the rewrite would lose them.
        guard String(validating: data, as: UTF8.self) != nil else {
            return .failure(Problem(message: "\(file): not valid UTF-8; fix or remove it to go on recording"))
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(Array(data))
        } catch {
            return .failure(Problem(message: "\(file): invalid JSON (\(error)); fix or remove it to go on recording"))
        }
        guard case .object(let members) = document else {
            return .failure(Problem(message: "\(file): expected an object {\"routes\": [...]}; fix or remove it to go on recording"))
        }
        // The last "routes" if repeated, as mockd reads it (`JSONValue` subscript).
        switch document["routes"] {
        case nil:
            return .success(RouteTable(members: members, routes: []))
        case .array(let routes)?:
            return .success(RouteTable(members: members, routes: routes))
        default:
            return .failure(Problem(message: "\(file): \"routes\" must be an array; fix or remove it to go on recording"))
        }
    }

    /// Routes for exactly this method and path (by `path`, or the `pathPattern` the recorder writes)
    /// in this scenario (nil: routes without one).
    func indices(method: String, path: String, scenario: String? = nil) -> [Int] {
        routes.indices.filter { index in
            let route = routes[index]
            guard route["scenario"]?.stringValue == scenario else { return false }
            let methodMatches: Bool
            switch route["method"] {
            case .string(let text)?: methodMatches = text.uppercased() == method.uppercased()
            case .array(let list)?: methodMatches = list.contains { $0.stringValue?.uppercased() == method.uppercased() }
            default: methodMatches = false
            }
            guard methodMatches else { return false }
            if let routePath = route["path"]?.stringValue, Recorder.normalized(routePath) == path { return true }
            if let pattern = route["pathPattern"]?.stringValue, pattern == Recorder.pattern(for: path) { return true }
            return false
        }
    }

    /// Puts `route` in place of the first of `replacing` (dropping the others), or appends it. Returns its index.
    mutating func put(_ route: JSONValue, replacing: [Int]) -> Int {
        guard let first = replacing.first else {
            routes.append(route)
            return routes.count - 1
        }
        routes[first] = route
        remove(Array(replacing.dropFirst()))
        return first
    }

    mutating func remove(_ indices: [Int]) {
        for index in indices.sorted(by: >) { routes.remove(at: index) }
    }

    func bytes() -> Data {
        var members = self.members
        if let at = members.lastIndex(where: { $0.key == "routes" }) {
            members[at].value = .array(routes)
        } else {
            members.append((key: "routes", value: .array(routes)))
        }
        return Data((JSONValue.object(members).prettyPrinted + "\n").utf8)
    }
}

extension JSONValue {
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
