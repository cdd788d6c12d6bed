/// `GET /__mockd/resources`: the resources and how many items each session's copy holds, or with
/// `?path=` the items one session sees now, so a test can assert the state without the app.
extension AdminAPI {
    func resources(_ request: MockRequest, _ context: Context) -> BuiltResponse {
        if let refusal = AdminKeys.resources.refusal(request) { return refusal }
        func argument(_ name: String) -> String? {
            request.query.first { $0.name == name }?.value.flatMap { $0.isEmpty ? nil : $0 }
        }
        let index = context.snapshot.resources
        guard let path = argument("path") else {
            let copies = context.state.resources.counts()
            return json(
                200,
                [
                    "resources": .array(
                        index.all.map { resource in
                            let own = copies.filter { $0.key.resource == resource.identity }
                                .sorted { ($0.key.session ?? "", $0.key.seed) < ($1.key.session ?? "", $1.key.seed) }
                            return .object([
                                ("path", .string(resource.path)), ("source", .string(resource.source)),
                                ("scenario", resource.scenario.map { .string($0) } ?? .null), ("idField", .string(resource.idField)),
                                ("seed", resource.seedFile.map { .string($0) } ?? .null),
                                ("seedItems", .number(resource.seeds[""]?.count ?? 0)),
                                (
                                    "copies",
                                    .array(
                                        own.map { copy in
                                            .object([
                                                ("session", copy.key.session.map { .string($0) } ?? .null),
                                                ("seededBy", .string(copy.key.seed.isEmpty ? "seed" : "scenario " + copy.key.seed)),
                                                ("items", .number(copy.count)),
                                            ])
                                        })
                                ),
                            ])
                        })
                ])
        }
        let session = argument("session")
        let scenario = argument("scenario") ?? context.state.runtimeScenario(session: session)
        guard let (resource, id) = index.find(path, scenario: scenario), id == nil else {
            return refuse(
                ErrorAnswer(
                    404, "no resource at \(path) in scenario \(scenario)",
                    details: [("resources", .array(index.all.map { .string($0.path) }))]))
        }
        let seed = resource.seedName(in: scenario)
        let items = context.state.resources.items(resource, seed: seed, session: session)
        return json(
            200,
            [
                "path": .string(resource.path), "source": .string(resource.source), "session": session.map { .string($0) } ?? .null,
                "scenario": .string(scenario), "count": .number(items.count), "items": .array(items.all.map(\.value)),
            ])
    }
}
