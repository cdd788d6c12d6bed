/// Routes by method and first literal path segment, so a request only looks at the routes
/// that could match it instead of scanning every table.
struct RouteIndex: Sendable {
    let routes: [Route]
    /// "METHOD first-segment" → positions in `routes`, ascending. Method `*` and non-literal
    /// first segments (`:id`, `*`, `**`, regular expressions) use `*` in the key.
    private let buckets: [String: [Int]]

    init(routes: [Route]) {
        self.routes = routes
        var buckets: [String: [Int]] = [:]
        for (position, route) in routes.enumerated() {
            let segment = route.path.firstLiteral ?? "*"
            let methods: [String]
            switch route.methods {
            case .any: methods = ["*"]
            case .only(let list): methods = list
            }
            for method in methods {
                buckets[method + " " + segment, default: []].append(position)
            }
        }
        self.buckets = buckets
    }

    var isEmpty: Bool { routes.isEmpty }

    /// Routes that may match, in resolution order.
    func candidates(method: String, path: String) -> [Route] {
        let first = PathPattern.split(path).first.map(String.init) ?? ""
        var methods = [method, "*"]
        if method == "HEAD" { methods.append("GET") }
        var lists: [[Int]] = []
        for candidate in methods {
            if let list = buckets[candidate + " " + first] { lists.append(list) }
            if let list = buckets[candidate + " *"] { lists.append(list) }
        }
        if lists.isEmpty { return [] }
        if lists.count == 1 { return lists[0].map { routes[$0] } }
        return Array(Set(lists.joined())).sorted().map { routes[$0] }
    }
}
