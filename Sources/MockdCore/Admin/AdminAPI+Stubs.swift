/// `POST /__mockd/stubs`, `GET /__mockd/stubs`, `DELETE /__mockd/stubs/ID`: routes a test adds
/// for itself (its session) or for everyone, answered before anything in the mock folder.
extension AdminAPI {
    func addStub(_ request: MockRequest, _ context: Context) -> AdminStep {
        guard let body = try? JSONParser.parse(request.body) else {
            return .answer(
                refuse(
                    ErrorAnswer(
                        400,
                        #"expected one route as JSON, like {"method": "GET", "path": "/api/users", "response": {"json": []}, "session": "sim-3"}"#
                    )))
        }
        if let refusal = AdminKeys.stubs.refusal(body) { return .answer(refusal) }
        let stubs = context.state.stubs
        let id = stubs.nextID(), root = context.snapshot.rootDisplayPath, graphQL = context.snapshot.graphQL
        let added = { @Sendable (decoded: Result<Stub, StubErrors>) -> AdminStep in
            switch decoded {
            case .failure(let refusal):
                return .answer(
                    refuse(
                        ErrorAnswer(
                            400, "the stub is not a route mockd can serve",
                            details: [("errors", .array(refusal.messages.map { .string($0) }))])
                    ))
            case .success(let stub):
                stubs.add(stub)
                // Served as sent, as a route is: a test may mean an answer off the OpenAPI
                // documents or the GraphQL schema. What breaks them is said in the answer and the
                // log, as the same answers in a route table are at load.
                let drift = [context.snapshot.operations, context.snapshot.contracts].flatMap {
                    $0.contractViolations(route: body, at: "stub")
                }
                let warnings =
                    drift.map { "\($0.location): \($0.message)" }
                    + graphQL.warnings(stub.graphQLAnswers).map { ($0.location.map { "\($0): " } ?? "") + $0.message }
                guard !warnings.isEmpty, case .object(let members) = describe(stub) else { return .answer(json(201, describe(stub))) }
                let answer = {
                    var answer = json(201, .object(members + [("warnings", .array(warnings.map { .string($0) }))]))
                    answer.headers.append(
                        HTTPHeader("X-Mockd-Warning", warnings[0] + (warnings.count > 1 ? " (and \(warnings.count - 1) more)" : "")))
                    return answer
                }()
                return .logWarning(
                    "\(stub.origin) answers what its contract does not allow: " + warnings.joined(separator: "; "),
                    then: { .answer(answer) })
            }
        }
        // Decoded without files first: a stub whose body names a file is decoded again once the
        // adapter gives the files, off the request's thread.
        let unread = UnreadFiles()
        let decoded = Stub.decode(body, id: id, root: root, files: unread)
        guard unread.wereAsked else { return added(decoded) }
        return .readFiles { files in added(Stub.decode(body, id: id, root: root, files: files)) }
    }

    func listStubs(_ context: Context) -> BuiltResponse {
        json(200, ["stubs": .array(context.state.stubs.all().reversed().map(describe))])
    }

    func removeStub(_ request: MockRequest, _ context: Context) -> BuiltResponse {
        let name = String(request.path.dropFirst("/__mockd/stubs/".count))
        let number = name.hasPrefix(Stub.originPrefix) ? String(name.dropFirst(Stub.originPrefix.count)) : name
        guard let id = Int(number), let removed = context.state.stubs.remove(id: id) else {
            return refuse(ErrorAnswer(404, "no stub \(JSONText.quoted(name)); GET /__mockd/stubs lists them"))
        }
        return json(200, ["id": .string(String(removed.id)), "deleted": true])
    }

    func describe(_ stub: Stub) -> JSONValue {
        .object([
            ("id", .string(String(stub.id))), ("origin", .string(stub.origin)), ("session", stub.session.map { .string($0) } ?? .null),
            ("method", .string(stub.route.methods.description)), ("path", .string(stub.route.path.source)), ("route", stub.definition),
        ])
    }
}
