/// Routes by method and first literal path segment, so a request only looks at the routes
/// that could match it instead of scanning every table.
struct RouteIndex: Sendable {
    let routes: [Route]
    /// (method, first segment) → positions in `routes`, ascending. Method `*` and non-literal
    /// first segments (`:id`, `*`, `**`, regular expressions) use `*`.
    private let buckets: [Key: [Int]]
    /// First segment → positions in `routes`, for any method (the 404 report's near routes).
    private let bySegment: [Substring: [Int]]

    struct Key: Hashable {
        let method: Substring
        let segment: Substring
    }

    init(routes: [Route]) {
        self.routes = routes
        var buckets: [Key: [Int]] = [:]
        var bySegment: [Substring: [Int]] = [:]
        for (position, route) in routes.enumerated() {
            let segment = route.path.firstLiteral ?? "*"
            bySegment[Substring(segment), default: []].append(position)
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
        self.bySegment = bySegment
    }

    var isEmpty: Bool { routes.isEmpty }

    /// Routes that may match, in resolution order. `parts` is the request path split by
    /// `PathPattern.split`.
    func candidates(method: String, parts: [Substring]) -> [Route] {
        let first = parts.first ?? ""
        let methods: [Substring] =
            HTTPMethods.alsoAnsweredAs(method).map { [Substring(method), "*", Substring($0)] } ?? [Substring(method), "*"]
        var lists: [[Int]] = []
        for candidate in methods {
            if let list = buckets[Key(method: candidate, segment: first)] { lists.append(list) }
            if let list = buckets[Key(method: candidate, segment: "*")] { lists.append(list) }
        }
        return merged(lists)
    }

    /// Routes whose path may match, whatever their method, in resolution order.
    func pathCandidates(parts: [Substring]) -> [Route] {
        merged([bySegment[parts.first ?? ""], bySegment["*"]].compactMap { $0 })
    }

    private func merged(_ lists: [[Int]]) -> [Route] {
        if lists.isEmpty { return [] }
        if lists.count == 1 { return lists[0].map { routes[$0] } }
        return Array(Set(lists.joined())).sorted().map { routes[$0] }
    }
}
