extension Resolver {
    /// The answer of the resource the request's path names (its collection or one item), or nil
    /// when no resource does. After routes and files: either can still answer one endpoint.
    func resource(for request: MockRequest, scenario: String) -> Resolution? {
        guard let (resource, id) = snapshot.resources.find(request.path, scenario: scenario) else { return nil }
        let answer = ResourceAnswer(
            resource: resource, store: state.resources, seed: resource.seedName(in: scenario), session: request.session)
        let response = id.map { answer.item($0, request) } ?? answer.collection(request)
        let reply = Reply(.built(response), scenario: scenario)
        let delay = globalDelay + (resource.delay?.sample() ?? .zero)
        return delay > .zero ? .respondAfter(delay, reply) : .respond(reply)
    }
}

/// One request to a resource, answered against its session's items.
struct ResourceAnswer {
    let resource: Resource
    let store: ResourceStore
    /// Which seed the session's copy starts from ("" or an overlay's scenario).
    let seed: String
    let session: String?

    /// `GET` (filtered by the query), `POST` (a new item).
    func collection(_ request: MockRequest) -> BuiltResponse {
        switch request.method {
        case "GET", "HEAD":
            let items = store.items(resource, seed: seed, session: session)
            let selected = request.query.isEmpty ? items.all : items.all.filter { Self.matches($0.value, request.query) }
            var body: [UInt8] = [UInt8(ascii: "[")]
            body.reserveCapacity(selected.reduce(2) { $0 + $1.bytes.count + 1 })
            for (index, item) in selected.enumerated() {
                if index > 0 { body.append(UInt8(ascii: ",")) }
                body += item.bytes
            }
            body.append(UInt8(ascii: "]"))
            return json(200, body)
        case "POST":
            return create(request)
        default:
            return notAllowed(request, ["GET", "HEAD", "POST"])
        }
    }

    /// `GET`, `PUT` (replace), `PATCH` (JSON Merge Patch), `DELETE` of the item `id`.
    func item(_ id: String, _ request: MockRequest) -> BuiltResponse {
        switch request.method {
        case "GET", "HEAD":
            guard let item = store.items(resource, seed: seed, session: session)[id] else { return missing(id) }
            return json(200, item.bytes)
        case "PUT", "PATCH":
            let body: JSONValue
            switch object(request) {
            case .success(let value): body = value
            case .failure(let refusal): return answer(refusal)
            }
            let patching = request.method == "PATCH"
            return store.write(resource, seed: seed, session: session) { items in
                guard let existing = items[id] else { return (missing(id), false) }
                let idValue = existing.value[resource.idField] ?? .string(id)
                if let given = body[resource.idField], ResourceItems.key(given) != id {
                    return (
                        error(
                            400,
                            "the \(JSONText.quoted(resource.idField)) of an item cannot change: the item is \(id), the body says \(given.serialized)"
                        ), false
                    )
                }
                let updated = patching ? existing.value.merged(with: body) : body
                let stored = ResourceItem(Self.setting(resource.idField, idValue, in: updated))
                items.replace(stored, key: id)
                return (json(200, stored.bytes), true)
            }
        case "DELETE":
            return store.write(resource, seed: seed, session: session) { items in
                items.remove(key: id) ? (BuiltResponse(status: 204, origin: resource.origin), true) : (missing(id), false)
            }
        default:
            return notAllowed(request, ["GET", "HEAD", "PUT", "PATCH", "DELETE"])
        }
    }

    private func create(_ request: MockRequest) -> BuiltResponse {
        let body: JSONValue
        switch object(request) {
        case .success(let value): body = value
        case .failure(let refusal): return answer(refusal)
        }
        let given = body[resource.idField]
        if let given, ResourceItems.key(given) == nil {
            return error(
                400,
                "expected \(JSONText.quoted(resource.idField)) to be a string or an integer (or absent, for a new one), found \(given.serialized)"
            )
        }
        return store.write(resource, seed: seed, session: session) { items in
            let id = given ?? items.newID()
            guard let key = ResourceItems.key(id) else { return (error(400, "unusable id \(id.serialized)"), false) }
            if items[key] != nil {
                return (
                    error(409, "\(resource.path) already has an item with \(JSONText.quoted(resource.idField)) \(id.serialized)", id: key),
                    false
                )
            }
            let stored = ResourceItem(given == nil ? Self.setting(resource.idField, id, in: body) : body)
            items.append(stored, key: key)
            var response = json(201, stored.bytes)
            response.headers.append(HTTPHeader("Location", resource.path + "/" + key))
            return (response, true)
        }
    }

    /// The request's body as a JSON object, or the 400 that says why it is not one.
    private func object(_ request: MockRequest) -> Result<JSONValue, ErrorAnswer> {
        do {
            let value = try JSONParser.parse(request.body)
            guard case .object = value else {
                return .failure(refusal(400, "expected a JSON object as the body, found \(SeedError.kind(value))"))
            }
            return .success(value)
        } catch {
            let why = request.body.isEmpty ? "the body is empty" : "\(error.location): \(error.message)"
            return .failure(refusal(400, "expected a JSON object as the body: \(why)"))
        }
    }

    /// `value` with `field` set to `id`: replaced where it is, else first.
    static func setting(_ field: String, _ id: JSONValue, in value: JSONValue) -> JSONValue {
        guard case .object(var members) = value else { return value }
        members.removeAll { $0.key == field }
        members.insert((key: field, value: id), at: 0)
        return .object(members)
    }

    /// Every query argument names a top-level field and the value it must have.
    static func matches(_ item: JSONValue, _ query: [(name: String, value: String?)]) -> Bool {
        query.allSatisfy { argument in
            let wanted = argument.value ?? ""
            switch item[argument.name] {
            case .string(let text)?: return text == wanted
            case .number(let text)?: return text == wanted || (Double(text) != nil && Double(text) == Double(wanted))
            case .bool(let flag)?: return wanted == (flag ? "true" : "false")
            case .null?: return wanted == "null"
            default: return false
            }
        }
    }

    private func missing(_ id: String) -> BuiltResponse {
        error(404, "\(resource.path) has no item with \(JSONText.quoted(resource.idField)) \(id)", id: id)
    }

    private func notAllowed(_ request: MockRequest, _ allowed: [String]) -> BuiltResponse {
        var refused = refusal(
            405, "\(request.method) is not allowed on \(request.path); a resource answers \(allowed.joined(separator: ", "))")
        refused.headers.append(HTTPHeader("Allow", allowed.joined(separator: ", ")))
        return answer(refused)
    }

    /// A refusal naming the resource, and the item when there is one.
    private func refusal(_ status: Int, _ message: String, id: String? = nil) -> ErrorAnswer {
        var details: [(key: String, value: JSONValue)] = [("resource", .string(resource.path))]
        if let id { details.append(("id", .string(id))) }
        return ErrorAnswer(status, message, details: details)
    }

    private func error(_ status: Int, _ message: String, id: String? = nil) -> BuiltResponse {
        answer(refusal(status, message, id: id))
    }

    /// On one line, as the resource's items are sent: a program reads it.
    private func answer(_ refusal: ErrorAnswer) -> BuiltResponse {
        refusal.response(origin: resource.origin, layout: .compact)
    }

    private func json(_ status: Int, _ body: [UInt8]) -> BuiltResponse {
        BuiltResponse(status: status, headers: [HTTPHeader("Content-Type", ContentType.json)], body: body, origin: resource.origin)
    }
}
