import MockdCore

/// A Postman collection (v2.0 or v2.1, as Postman exports it) as operations, served by
/// `--openapi` like a document's: each request's saved examples (`item[].response[]`, folders
/// walked) are its answers, grouped by method and path (the query is not part of the path).
/// The first 2xx example answers by default, else the first; `Prefer: example=NAME` (the
/// example's `name`) or a scenario of that name picks another. A request without examples
/// answers 501 with a hint.
struct PostmanCollection {
    let file: String
    /// `api.postman_collection.json`, for sources.
    let document: String
    private(set) var diagnostics: [Diagnostic] = []

    /// One saved example, read.
    private struct Example {
        var name: String
        var status: Int
        var contentType: String?
        var headers: [HTTPHeader]
        var body: [UInt8]
    }

    /// Method and path template (`GET /users/{id}`) → its examples, in collection order.
    private var requests: [(method: String, template: String, examples: [Example])] = []

    init(file: String, document: String) {
        self.file = file
        self.document = document
    }

    /// A collection, not an OpenAPI document: `info.schema` names Postman's schema, or `info`
    /// has a `_postman_id` and there is an `item` list.
    static func isCollection(_ root: JSONValue) -> Bool {
        guard let info = root["info"] else { return false }
        if let schema = info["schema"]?.stringValue, schema.contains("schema.getpostman.com") || schema.contains("schema.postman.com") {
            return true
        }
        return info["_postman_id"] != nil && root["item"] != nil
    }

    mutating func operations(_ root: JSONValue, into builder: inout ResponseBuilder) -> [APIOperation] {
        guard let items = root["item"]?.arrayValue else {
            error("item", "expected an array of requests and folders, found \(Self.found(root["item"]))")
            return []
        }
        walk(items, at: "item")
        var operations: [APIOperation] = []
        for request in requests {
            let source = "postman \(document) \(request.method) \(request.template)"
            operations.append(
                APIOperation(
                    method: request.method, pathTemplate: request.template,
                    responses: responses(
                        request.examples, source: source, method: request.method, template: request.template, into: &builder),
                    validator: nil, security: [], source: source))
        }
        if operations.isEmpty, diagnostics.isEmpty {
            diagnostics.append(Diagnostic(.warning, file: file, location: "item", "no requests: nothing to serve"))
        }
        return operations
    }

    /// The examples grouped by status, the default's status first (its first example answers),
    /// the others in the order they first appear; each group lists its examples by name.
    private func responses(
        _ examples: [Example], source: String, method: String, template: String,
        into builder: inout ResponseBuilder
    ) -> [OperationResponse] {
        guard let chosen = examples.first(where: { (200...299).contains($0.status) }) ?? examples.first else {
            let missing = ErrorAnswer(
                501, "\(method) \(template) has no saved example in \(document)",
                details: [
                    (
                        "hint",
                        .string(
                            "in Postman, send the request and Save Response as an example, export the collection again; mockd reloads it")
                    )
                ])
            let prepared = builder.prepare(
                status: missing.status, contentType: ContentType.json, headers: [],
                body: ResponseBody(Array(missing.body(.pretty).utf8)), origin: .operation("\(source) no example"))
            return [OperationResponse(status: 501, prepared: prepared)]
        }
        var statuses = [chosen.status]
        for example in examples where !statuses.contains(example.status) { statuses.append(example.status) }
        return statuses.map { status in
            let named = examples.filter { $0.status == status }.map { example in
                (
                    name: example.name,
                    response: builder.prepare(
                        status: status, contentType: example.contentType, headers: example.headers,
                        body: ResponseBody(example.body), origin: .operation("\(source) example \(JSONText.quoted(example.name))"))
                )
            }
            return OperationResponse(status: status, prepared: named[0].response, examples: named)
        }
    }

    // MARK: - Reading

    private mutating func walk(_ items: [JSONValue], at place: String) {
        for (index, item) in items.enumerated() {
            let here = "\(place)[\(index)]"
            guard item.objectValue != nil else {
                error(here, "expected a request or a folder (an object), found \(Self.found(item))")
                continue
            }
            if let children = item["item"] {
                guard let list = children.arrayValue else {
                    error(here + ".item", "expected the folder's array of requests, found \(Self.found(children))")
                    continue
                }
                walk(list, at: here + ".item")
                continue
            }
            read(item, at: here)
        }
    }

    /// One request: its method and path, and each saved example (whose `originalRequest`, when
    /// it has one, says the method and path it answers).
    private mutating func read(_ item: JSONValue, at place: String) {
        guard let request = item["request"] else {
            error(place + ".request", "expected the request (an object or a URL), found nothing")
            return
        }
        guard let (method, template) = endpoint(request, at: place + ".request") else { return }
        let responses: [JSONValue]
        switch item["response"] {
        case nil, .null?: responses = []
        case .array(let list)?: responses = list
        case let other?:
            error(place + ".response", "expected an array of saved examples, found \(Self.found(other))")
            return
        }
        if responses.isEmpty { add(method: method, template: template, nil) }
        for (index, response) in responses.enumerated() {
            let here = "\(place).response[\(index)]"
            guard response.objectValue != nil else {
                error(here, "expected a saved example (an object), found \(Self.found(response))")
                continue
            }
            var target = (method: method, template: template)
            if let original = response["originalRequest"], original != .null {
                guard let read = endpoint(original, at: here + ".originalRequest") else { continue }
                target = read
            }
            if let example = example(response, at: here, index: index) { add(method: target.method, template: target.template, example) }
        }
    }

    private mutating func add(method: String, template: String, _ example: Example?) {
        if let at = requests.firstIndex(where: { $0.method == method && $0.template == template }) {
            if let example { requests[at].examples.append(example) }
        } else {
            requests.append((method, template, example.map { [$0] } ?? []))
        }
    }

    private mutating func example(_ response: JSONValue, at place: String, index: Int) -> Example? {
        var problems = false
        var name = "example \(index + 1)"
        switch response["name"] {
        case nil, .null?: break
        case .string(let text)?: name = text
        case let other?: error(place + ".name", "expected the example's name (a string), found \(Self.found(other))"); problems = true
        }
        var status = 0
        if let code = response["code"]?.intValue, (100...599).contains(code) {
            status = code
        } else {
            error(place + ".code", "expected the example's HTTP status (an integer 100-599), found \(Self.found(response["code"]))")
            problems = true
        }
        var headers: [HTTPHeader] = []
        switch response["header"] {
        case nil, .null?: break
        case .string(let text)?:
            for line in text.split(whereSeparator: \.isNewline) {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers.append(
                    HTTPHeader(String(line[..<colon].trimming(.spaces)), String(line[line.index(after: colon)...].trimming(.spaces))))
            }
        case .array(let list)?:
            for (at, header) in list.enumerated() {
                guard let key = header["key"]?.stringValue, !key.isEmpty else {
                    error("\(place).header[\(at)].key", "expected the header's name (a string), found \(Self.found(header["key"]))")
                    problems = true
                    continue
                }
                if header["disabled"]?.boolValue == true { continue }
                headers.append(HTTPHeader(key, header["value"].map(Self.text) ?? ""))
            }
        case let other?:
            error(place + ".header", "expected an array of {\"key\", \"value\"} headers, found \(Self.found(other))")
            problems = true
        }
        var body: [UInt8] = []
        switch response["body"] {
        case nil, .null?: break
        case .string(let text)?: body = Array(text.utf8)
        case let other?: error(place + ".body", "expected the body as text (a string), found \(Self.found(other))"); problems = true
        }
        guard !problems else { return nil }
        // Headers about the transfer Postman saw are not repeated: mockd frames its own answer.
        headers.removeAll { HTTPHeader.transferNames.contains($0.name.lowercased()) }
        var contentType = headers.first(named: "Content-Type")
        headers.removeAll { $0.name.lowercased() == "content-type" }
        if contentType == nil, !body.isEmpty, let language = response["_postman_previewlanguage"]?.stringValue {
            contentType = ["json": "application/json", "xml": "application/xml", "html": "text/html", "text": "text/plain"][language]
        }
        return Example(name: name, status: status, contentType: contentType, headers: headers, body: body)
    }

    /// The method and path template of a request (an object, or a URL string as v2.0 allows).
    private mutating func endpoint(_ request: JSONValue, at place: String) -> (method: String, template: String)? {
        var method = "GET"
        let url: JSONValue?
        switch request {
        case .string: url = request
        case .object:
            url = request["url"]
            switch request["method"] {
            case nil, .null?: break
            case .string(let text)? where !text.isEmpty && text.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }):
                method = text.uppercased()
            case let other?:
                error(place + ".method", "expected an HTTP method (GET, POST, …), found \(Self.found(other))")
                return nil
            }
        default:
            error(place, "expected the request (an object or a URL), found \(Self.found(request))")
            return nil
        }
        guard let segments = pathSegments(url, at: place + ".url") else { return nil }
        return (method, "/" + segments.map(Self.templateSegment).joined(separator: "/"))
    }

    /// The path's segments: `url.path` when the URL has one, else read from `url.raw` (or the
    /// URL string) after its scheme and host (`{{baseUrl}}` or any `{{var}}` there included).
    private mutating func pathSegments(_ url: JSONValue?, at place: String) -> [String]? {
        switch url {
        case .string(let raw)?:
            return Self.segments(ofRaw: raw)
        case .object?:
            switch url?["path"] {
            case .array(let parts)?:
                var segments: [String] = []
                for (index, part) in parts.enumerated() {
                    if let text = part.stringValue ?? part["value"]?.stringValue {
                        segments.append(text)
                    } else {
                        error("\(place).path[\(index)]", "expected a path segment (a string), found \(Self.found(part))")
                        return nil
                    }
                }
                return segments.filter { !$0.isEmpty }
            case .string(let path)?:
                return Self.segments(ofRaw: "/" + path)
            case nil, .null?:
                if let raw = url?["raw"]?.stringValue { return Self.segments(ofRaw: raw) }
                error(place, "expected the URL's raw or path, found neither")
                return nil
            default:
                error(place + ".path", "expected the path's segments (an array of strings), found \(Self.found(url?["path"]))")
                return nil
            }
        default:
            error(place, "expected the URL (a string, or an object with raw or path), found \(Self.found(url))")
            return nil
        }
    }

    /// `https://api.example.com/v1/users/:id?x=1`, `{{baseUrl}}/users`, `example.com/a` → the path's segments.
    static func segments(ofRaw raw: String) -> [String] {
        var rest = Substring(raw)
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        if !rest.hasPrefix("/") {
            // The host: a `{{variable}}` (which may hold a scheme, a host and a path) or a name up to the first `/`.
            if rest.hasPrefix("{{"), let close = rest.firstRange(of: "}}") {
                rest = rest[close.upperBound...]
            }
            if !rest.hasPrefix("/") { rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? "" }
        }
        return rest.split(separator: "/").map(String.init)
    }

    /// `:id` and `{{id}}` are path parameters (`{id}`); anything else is literal.
    static func templateSegment(_ segment: String) -> String {
        if segment.hasPrefix(":"), segment.count > 1 { return "{" + segment.dropFirst() + "}" }
        if segment.hasPrefix("{{"), segment.hasSuffix("}}"), segment.count > 4 { return "{" + segment.dropFirst(2).dropLast(2) + "}" }
        return segment
    }

    private static func text(_ value: JSONValue) -> String {
        value.stringValue ?? (value == .null ? "" : value.serialized)
    }

    /// A value as the error shows what was found: `"200"`, `null`, `nothing`.
    static func found(_ value: JSONValue?) -> String {
        guard let value else { return "nothing" }
        let text = value.serialized
        return text.count > 60 ? String(text.prefix(57)) + "…" : text
    }

    private mutating func error(_ place: String, _ message: String) {
        diagnostics.append(Diagnostic(file: file, location: place, message))
    }
}
