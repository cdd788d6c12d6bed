/// Routes by method and first literal path segment, so a request only looks at the routes
/// that could match it instead of scanning every table.
struct RouteIndex: Sendable {
    let routes: [Route]
    /// (method, first segment) → positions in `routes`, ascending. Method `*` and non-literal
    /// first segments (`:id`, `*`, `**`, regular expressions) use `*`.
    private let buckets: [Key: [Int]]

    struct Key: Hashable {
        let method: Substring
        let segment: Substring
    }

    init(routes: [Route]) {
        self.routes = routes
        var buckets: [Key: [Int]] = [:]
        for (position, route) in routes.enumerated() {
            let segment = route.path.firstLiteral ?? "*"
            let methods: [String]
            switch route.methods {
            case .any: methods = ["*"]
            case .only(let list): methods = list
            }
            for method in methods {
                buckets[Key(method: Substring(method), segment: Substring(segment)), default: []].append(position)
            }
        }
        self.buckets = buckets
    }

    var isEmpty: Bool { routes.isEmpty }

    /// Routes that may match, in resolution order. `parts` is the request path split by
    /// `PathPattern.split`.
    func candidates(method: String, parts: [Substring]) -> [Route] {
        let first = parts.first ?? ""
        let methods: [Substring] = method == "HEAD" ? [Substring(method), "*", "GET"] : [Substring(method), "*"]
        var lists: [[Int]] = []
        for candidate in methods {
            if let list = buckets[Key(method: candidate, segment: first)] { lists.append(list) }
            if let list = buckets[Key(method: candidate, segment: "*")] { lists.append(list) }
        }
        if lists.isEmpty { return [] }
        if lists.count == 1 { return lists[0].map { routes[$0] } }
        return Array(Set(lists.joined())).sorted().map { routes[$0] }
    }
}
