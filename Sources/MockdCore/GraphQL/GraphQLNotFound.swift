/// The 404 of a GraphQL operation nothing answers, in the shape GraphQL clients read:
/// `{"errors": [{"message": "no mock for query GetFeed; near: GetFeedPage", "extensions": {…}}]}`,
/// the extensions saying what was looked for and what was near, as the 404 report does for files.
package enum GraphQLNotFound {
    package static func response(for call: GraphQLCall, request: MockRequest, scenario: String, in snapshot: Snapshot) -> BuiltResponse {
        var call = call
        // A miss is rare: its document is parsed for the operation's kind when nothing said it.
        if call.kind == nil, let query = call.query, let reader = snapshot.graphQL.reader,
            let operations = try? reader.operations(in: query)
        {
            call.kind = operations.first { $0.name == call.operationName }?.kind
        }
        let root = snapshot.rootDisplayPath
        guard let name = call.operationName else {
            return GraphQLErrors.response(
                status: 404,
                message:
                    "no mock for an anonymous \(call.kind ?? "operation"): name it (query GetFeed { … }) to answer it by file or route",
                extensions: [("code", .string("MOCKD_NO_MOCK")), ("scenario", .string(scenario))], origin: .graphQLMiss(call.described))
        }
        if call.persistedQueryHash != nil, call.query == nil, call.kind == nil { call.kind = "operation" }
        var lookedFor: [String] = []
        let file = "\(GraphQLTable.folder)/\(name).json"
        if snapshot.graphQL.overlays[scenario] != nil || scenario != Scenario.default {
            lookedFor.append("\(root)/\(MockDataLoader.scenariosFolder)/\(scenario)/\(file)")
        }
        lookedFor.append("\(root)/\(file)")
        let near = nearOperations(to: name, scenario: scenario, in: snapshot)
        var routes: [JSONValue] = []
        var body = RequestBody(request.body)
        body.graphQL = call
        let parts = PathPattern.split(request.path)
        for route in snapshot.routeIndex.pathCandidates(parts: parts) where route.path.match(request.path, parts: parts) != nil {
            guard route.conditions.contains(where: { if case .graphQL(let operation, _) = $0 { operation == name } else { false } }) else {
                continue
            }
            guard let why = NotFoundReport.whyNotAnswered(route, request, scenario: scenario, &body) else { continue }
            routes.append(.object([("route", .string(route.source)), ("why", .string(why))]))
            if routes.count == 10 { break }
        }
        var message = "no mock for \(call.described)"
        if !near.isEmpty { message += "; near: " + near.joined(separator: ", ") }
        let hint =
            routes.isEmpty
            ? "create \(root)/\(file) with the whole answer ({\"data\": …}), or add a route with \"graphql\": {\"operation\": \"\(name)\"}"
            : "a route for \(name) is there but did not answer: see routes"
        return GraphQLErrors.response(
            status: 404, message: message,
            extensions: [
                ("code", .string("MOCKD_NO_MOCK")), ("operation", .string(name)), ("scenario", .string(scenario)),
                ("lookedFor", .array(lookedFor.map { .string($0) })), ("near", .array(near.map { .string($0) })),
                ("routes", .array(routes)), ("hint", .string(hint)),
            ], origin: .graphQLMiss(call.described))
    }

    /// Operation names answered by files (the scenario's and the others) or routes that are near
    /// `name`: a small edit away (a third of its length, at least two), or one inside the other
    /// (`GetFeed` and `GetFeedPage`), closest first.
    static func nearOperations(to name: String, scenario: String, in snapshot: Snapshot) -> [String] {
        var names = Set(snapshot.graphQL.files.keys)
        if let overlay = snapshot.graphQL.overlays[scenario] { names.formUnion(overlay.keys) }
        for route in snapshot.routes {
            for case .graphQL(let operation, _) in route.conditions { names.insert(operation) }
        }
        let target = name.lowercased()
        let bound = max(2, target.utf8.count / 3)
        var found: [(distance: Int, name: String)] = []
        for candidate in names where candidate != name {
            let lowered = candidate.lowercased()
            let distance =
                EditDistance.bounded(target.utf8, lowered.utf8, bound: max(target.utf8.count, lowered.utf8.count)) ?? Int.max
            if distance <= bound || lowered.contains(target) || target.contains(lowered) {
                found.append((distance, candidate))
            }
        }
        found.sort { ($0.distance, $0.name) < ($1.distance, $1.name) }
        return found.prefix(NotFoundReport.nearLimit).map(\.name)
    }
}
