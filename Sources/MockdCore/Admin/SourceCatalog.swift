/// Everything that can answer, as the dashboard lists it (`GET /__mockd/sources`), and one
/// source's responses in full (`GET /__mockd/source?origin=`). Read from the snapshot only.
enum SourceCatalog {
    /// Stubs (newest first), routes, then scenario overlay files, then files, then GraphQL
    /// operation files and the schema, then OpenAPI operations: the order the resolver tries them (per scenario, a scenario's own routes and
    /// files come first; a session's stubs before everyone's).
    static func list(_ snapshot: Snapshot, stubs: [Stub] = []) -> [JSONValue] {
        var sources: [JSONValue] = stubs.reversed().map { stub in
            row(
                kind: "stub", method: stub.route.methods.description, url: stub.route.path.source, scenario: stub.route.scenario,
                status: stub.route.responses.first { $0.fault == nil }?.status, origin: stub.origin, name: stub.route.name,
                conditions: stub.route.conditions.map(\.description), session: stub.session)
        }
        sources += snapshot.routes.map { route in
            row(
                kind: "route", method: route.methods.description, url: route.path.source, scenario: route.scenario,
                status: route.responses.first { $0.fault == nil }?.status, origin: route.source, name: route.name,
                conditions: route.conditions.map(\.description))
        }
        for scenario in snapshot.overlays.keys.sorted() {
            sources += snapshot.overlays[scenario]!.values.sorted { $0.relativePath < $1.relativePath }.map {
                fileRow($0, scenario: scenario, snapshot)
            }
        }
        sources += snapshot.files.values.sorted { $0.relativePath < $1.relativePath }.map { fileRow($0, scenario: nil, snapshot) }
        // An operation's answer by file, on each endpoint: the overlays' first, as files are.
        for scenario in snapshot.graphQL.overlays.keys.sorted() + [nil] {
            for endpoint in snapshot.graphQL.endpointPaths {
                sources += snapshot.graphQL.listedFiles(scenario: scenario).map { file in
                    row(
                        kind: "graphql", method: GraphQLTable.listedMethods, url: endpoint, scenario: scenario,
                        status: file.response.status, origin: file.relativePath, name: file.operation,
                        conditions: [GraphQLTable.listedCondition(file)])
                }
                if scenario == nil, let schema = snapshot.graphQL.schemaPath {
                    sources.append(
                        row(
                            kind: "graphql", method: GraphQLTable.listedMethods, url: endpoint, scenario: nil, status: 200,
                            origin: "graphql " + schema, name: nil, conditions: ["any other operation"]))
                }
            }
        }
        sources += snapshot.operations.operations.map { operation in
            row(
                kind: "operation", method: operation.method, url: operation.pathTemplate, scenario: nil,
                status: operation.responses.first?.prepared.status, origin: operation.source, name: nil, conditions: [])
        }
        return sources
    }

    /// `neverAnswers`: the route that always answers first, for a file that is never served.
    /// `neverAnswers`: the route that always answers first, for a file that is never served.
    static func fileRow(_ file: MockFile, scenario: String?, _ snapshot: Snapshot) -> JSONValue {
        let plain = row(
            kind: "file", method: file.method, url: ResolutionOrder.urlPath(file.name), scenario: scenario,
            status: file.response.status, origin: file.relativePath, name: nil, conditions: [])
        guard let route = snapshot.shadowed[file.relativePath], case .object(var members) = plain else { return plain }
        members.append(("neverAnswers", .string("\(route) always answers first")))
        return .object(members)
    }

    static func row(
        kind: String, method: String, url: String, scenario: String?, status: Int?, origin: String,
        name: String?, conditions: [String], session: String? = nil
    ) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("kind", .string(kind)), ("method", .string(method)), ("url", .string(url)),
            ("scenario", scenario.map { .string($0) } ?? .null), ("status", status.map { .number($0) } ?? .null),
            ("origin", .string(origin)), ("name", name.map { .string($0) } ?? .null),
            ("conditions", .array(conditions.map { .string($0) })),
        ]
        if kind == "stub" { members.append(("session", session.map { .string($0) } ?? .null)) }
        return .object(members)
    }

    /// The responses of the source named `origin`: a route's `source` (`routes/auth.json#2`), a
    /// file's path under the root, an operation's `source`, or what `X-Mockd-Source` and the
    /// journal say (`file …`, `route …`, `openapi … 200 example "cat"`). nil when nothing has that name.
    static func detail(origin: String, _ snapshot: Snapshot, stubs: [Stub] = []) -> JSONValue? {
        var name = origin
        for prefix in ["file ", "route "] where name.hasPrefix(prefix) { name = String(name.dropFirst(prefix.count)) }
        if let stub = stubs.first(where: { $0.origin == name }) {
            return describe(kind: "stub", origin: stub.origin, stub.route.responses.map(routeResponse))
        }
        if let route = snapshot.routes.first(where: { $0.source == name }) {
            return describe(kind: "route", origin: route.source, route.responses.map(routeResponse))
        }
        let files = snapshot.files.values + snapshot.overlays.values.flatMap(\.values)
        if let file = files.first(where: { $0.relativePath == name }) {
            return describe(kind: "file", origin: file.relativePath, [prepared(file.response, delayMs: 0, fault: nil)])
        }
        if let file = snapshot.graphQL.file(at: name) {
            return describe(kind: "graphql", origin: file.relativePath, [prepared(file.response, delayMs: 0, fault: nil)])
        }
        // The schema answers each operation as it asks: no response to show.
        if let schema = snapshot.graphQL.schemaPath, name == "graphql " + schema || name.hasPrefix("graphql \(schema) ") {
            return describe(kind: "graphql schema", origin: "graphql " + schema, [])
        }
        // An answer's source is its operation's, then the status and example chosen.
        if let operation = snapshot.operations.operations.first(where: { name == $0.source || name.hasPrefix($0.source + " ") }) {
            var responses: [JSONValue] = []
            for response in operation.responses {
                responses.append(prepared(response.prepared, delayMs: 0, fault: nil))
                responses += response.examples.map { example in
                    guard case .object(let members) = prepared(example.response, delayMs: 0, fault: nil) else { return .null }
                    return .object(members + [("example", .string(example.name))])
                }
            }
            return describe(kind: "operation", origin: operation.source, responses)
        }
        return nil
    }

    static func describe(kind: String, origin: String, _ responses: [JSONValue]) -> JSONValue {
        .object([("origin", .string(origin)), ("kind", .string(kind)), ("responses", .array(responses))])
    }

    /// A route's response as the dashboard shows it, with its `then` push when it has one.
    static func routeResponse(_ response: RouteResponse) -> JSONValue {
        let described = answer(response)
        guard let then = response.then, case .object(let members) = described else { return described }
        return .object(
            members + [
                (
                    "then",
                    .object([
                        ("push", .string(then.name)), ("afterMs", .number(then.afterMilliseconds)),
                        ("device", then.device.map { .string($0) } ?? .null), ("bundleId", then.bundleID.map { .string($0) } ?? .null),
                    ])
                )
            ])
    }

    private static func answer(_ response: RouteResponse) -> JSONValue {
        let delayMs: Int = response.delay?.minimumMilliseconds ?? 0
        switch response.body {
        case .prepared(let prepared):
            return self.prepared(prepared, delayMs: delayMs, fault: response.fault)
        case .template(let template):
            return .object([
                ("status", .number(template.status)), ("headers", headers(template.headers)), ("body", .string(template.text)),
                ("template", true), ("delayMs", .number(delayMs)), ("fault", response.fault.map { .string($0.rawValue) } ?? .null),
            ])
        case .none:
            return .object([
                ("status", .null), ("headers", .object([])), ("body", .null), ("delayMs", .number(delayMs)),
                ("fault", response.fault.map { .string($0.rawValue) } ?? .null),
            ])
        case .stream(let stream, let headers, _):
            // The body as it goes on the wire, all pieces together, with how many and how it ends.
            return .object([
                ("status", .number(response.status)), ("headers", self.headers(headers)),
                ("body", .string(String(decoding: stream.pieces.flatMap(\.bytes), as: UTF8.self))),
                (
                    "stream",
                    .object([
                        ("pieces", .number(stream.pieces.count)), ("unit", .string(stream.unit)),
                        ("ending", .string(stream.ending.rawValue)),
                    ])
                ),
                ("delayMs", .number(delayMs)), ("fault", response.fault.map { .string($0.rawValue) } ?? .null),
            ])
        case .webSocket(let script, _):
            // What the conversation is made of, for the dashboard; the route table has the whole of it.
            return .object([
                ("status", .number(101)), ("headers", .object([])), ("body", .null),
                (
                    "websocket",
                    .object([
                        ("subprotocols", .array(script.subprotocols.map { .string($0) })), ("onOpen", .number(script.onOpen.count)),
                        ("onMessage", .number(script.rules.count)), ("steps", .number(script.steps.count)),
                    ])
                ),
                ("delayMs", .number(0)), ("fault", script.fault.map { .string($0.kind.rawValue) } ?? .null),
            ])
        }
    }

    static func prepared(_ response: PreparedResponse, delayMs: Int, fault: Fault?) -> JSONValue {
        .object([
            ("status", .number(response.status)), ("headers", headers(response.headersWithoutSource)),
            ("body", .string(String(decoding: response.body.bytes, as: UTF8.self))),
            ("delayMs", .number(delayMs)), ("fault", fault.map { .string($0.rawValue) } ?? .null),
        ])
    }

    static func headers(_ headers: [HTTPHeader]) -> JSONValue {
        .object(headers.map { ($0.name, .string($0.value)) })
    }
}
