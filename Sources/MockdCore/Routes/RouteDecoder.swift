/// Turns one parsed route table into routes. Keeps going after an error so that every
/// problem in the file is reported at once, each as `file: json.path: expected …, found …`.
struct RouteDecoder {
    let file: String
    let root: String
    /// Where `file` bodies and seeds are read from.
    let files: any FileSource
    var builder: ResponseBuilder
    let firstOrder: Int
    var routes: [Route] = []
    var diagnostics: [Diagnostic] = []
    /// The routes are stubs a test sent (`stub#3`), not routes of a table (`routes/a.json#0`).
    var decodesStubs = false
    /// Body files read, relative to the root (as the root's walk names them).
    var bodyFiles: Set<String> = []
    /// Resources declared (`{"resource": …}` entries).
    var resources: [Resource] = []
    /// Seed files resources read, relative to the root as the table names them: not served as files.
    var seedFiles: Set<String> = []
    /// The scenario overlays of the mock root, where a seed's overlays are looked up by name.
    var overlays: [String: MockFileTable] = [:]
    /// The operation of the GraphQL route being decoded, which its origin names.
    var graphQLOperation: String?
    /// The `json` answers of GraphQL routes, to check against the schema once it is loaded.
    var graphQLAnswers: [GraphQLWrittenAnswer] = []

    init(file: String, root: String, files: any FileSource, builder: ResponseBuilder, firstOrder: Int) {
        self.file = file
        self.root = root
        self.files = files
        self.builder = builder
        self.firstOrder = firstOrder
    }

    static let tableKeys = ["routes"]
    static let routeKeys = [
        "name", "method", "path", "pathPattern", "match", "graphql", "scenario", "response", "responses", "sequence", "websocket",
    ]
    static let graphQLKeys = ["operation", "variables"]
    static let matchKeys = ["headers", "query", "json", "text"]
    static let responseKeys = ["status", "headers", "json", "text", "file", "template", "delayMs", "fault", "stream", "then"]
    /// Longest delay a route may ask for: a forgotten value cannot park connections for hours.
    static let maximumDelayMilliseconds = 600_000

    mutating func decodeTable(_ value: JSONValue) {
        guard case .object = value else {
            return error("", "expected an object like {\"routes\": [ … ]}, found \(found(value))")
        }
        checkKeys(value, allowed: Self.tableKeys, at: "")
        guard let list = value["routes"] else { return error("", "missing \"routes\": expected {\"routes\": [ … ]}") }
        guard case .array(let items) = list else { return error("routes", "expected an array of routes, found \(found(list))") }
        for (index, item) in items.enumerated() {
            if item["resource"] != nil {
                decodeResource(item, index: index)
                continue
            }
            if let route = decodeRoute(item, index: index) { routes.append(route) }
        }
    }

    /// `at`: where the route is in its JSON, for errors (a table's `routes[3]` by default).
    mutating func decodeRoute(_ value: JSONValue, index: Int, at: String? = nil) -> Route? {
        let at = at ?? "routes[\(index)]"
        guard case .object = value else { error(at, "expected a route object, found \(found(value))"); return nil }
        let errorsBefore = diagnostics.count
        checkKeys(value, allowed: Self.routeKeys, at: at)

        let name = string(value["name"], at: at + ".name")
        // A WebSocket route is opened with GET, which it need not say; a GraphQL operation comes by POST or GET.
        let methods =
            value["method"] == nil && value["websocket"] != nil
            ? .only(["GET"])
            : value["method"] == nil && value["graphql"] != nil
                ? .only(["POST", "GET"]) : decodeMethods(value["method"], at: at + ".method")
        let path = decodePath(value, at: at)
        var conditions = value["match"].map { decodeMatch($0, at: at + ".match") } ?? []
        graphQLOperation = nil
        if let raw = value["graphql"], let condition = decodeGraphQL(raw, at: at + ".graphql") {
            conditions.insert(condition, at: 0)
        }
        defer { graphQLOperation = nil }
        var scenario: String?
        if let raw = value["scenario"] {
            scenario = string(raw, at: at + ".scenario")
            if scenario?.isEmpty == true { error(at + ".scenario", "expected a scenario name, found an empty string") }
        }
        var responses: [RouteResponse] = []
        var sequence = SequenceMode.repeatLast
        let source = "\(file)#\(index)"
        switch (value["response"], value["responses"]) {
        case (nil, nil) where value["websocket"] != nil:
            if let script = value["websocket"].flatMap({ decodeWebSocket($0, at: at + ".websocket") }) {
                responses = [RouteResponse(body: .webSocket(script, origin: origin(source)), delay: nil, fault: nil, status: 101)]
            }
            if case .only(let listed)? = methods, listed != ["GET"] {
                error(at + ".method", "a WebSocket route is opened with GET, found \(methods!.description)")
            }
        case (_, _) where value["websocket"] != nil:
            error(at, "has \"websocket\" and \"response\"; a WebSocket route's conversation is its answer, keep one")
        case (nil, nil):
            error(at, "missing \"response\" (or \"responses\" for a sequence, or \"websocket\" for a conversation)")
        case (.some, .some):
            error(at, "has both \"response\" and \"responses\"; keep one")
        case (let single?, nil):
            if let response = decodeResponse(single, at: at + ".response", source: source) { responses = [response] }
            if value["sequence"] != nil { error(at + ".sequence", "only routes with \"responses\" (a list) have a sequence") }
        case (nil, let list?):
            if case .array(let items) = list, !items.isEmpty {
                for (position, item) in items.enumerated() {
                    if let response = decodeResponse(item, at: at + ".responses[\(position)]", source: source + "." + String(position)) {
                        responses.append(response)
                    }
                }
            } else {
                error(at + ".responses", "expected a non-empty array of responses, found \(found(list))")
            }
            if let raw = value["sequence"] {
                if case .string(let text) = raw, let mode = SequenceMode(rawValue: text) {
                    sequence = mode
                } else {
                    error(at + ".sequence", "expected \"repeat-last\" or \"cycle\", found \(found(raw))")
                }
            }
        }
        guard diagnostics[errorsBefore...].allSatisfy({ $0.severity == .warning }), let methods, let path else { return nil }
        let identity = ([file, name ?? "", methods.description, path.source, scenario ?? ""] + conditions.map(\.description)).joined(
            separator: "|")
        return Route(
            order: firstOrder + routes.count, name: name, source: source, identity: identity, methods: methods, path: path,
            conditions: conditions, scenario: scenario, responses: responses, sequence: sequence, origin: origin(source))
    }

    /// Where the answers of the route or response at `place` say they came from; a GraphQL
    /// route's name its operation (`route routes/api.json#0 graphql GetUser`).
    func origin(_ place: String) -> Origin {
        let named = graphQLOperation.map { place + " graphql " + $0 } ?? place
        return decodesStubs ? .stub(named) : .route(named)
    }

    /// `"graphql": {"operation": "GetUser", "variables": {"id": "42"}}`: the route answers that
    /// operation on a GraphQL endpoint, when its variables contain these.
    mutating func decodeGraphQL(_ value: JSONValue, at: String) -> Condition? {
        guard case .object = value else {
            error(at, "expected {\"operation\": \"GetUser\", \"variables\": {…}}, found \(found(value))")
            return nil
        }
        checkKeys(value, allowed: Self.graphQLKeys, at: at)
        guard case .string(let operation)? = value["operation"], GraphQLTable.isName(operation) else {
            var given = "nothing"
            if let raw = value["operation"] { given = found(raw) }
            error(at + ".operation", "expected an operation name such as \"GetUser\", found \(given)")
            return nil
        }
        var variables: JSONValue?
        if let raw = value["variables"] {
            guard case .object = raw else {
                error(at + ".variables", "expected an object the request's variables contain, found \(found(raw))")
                return nil
            }
            variables = raw
        }
        graphQLOperation = operation
        return .graphQL(operation: operation, variables: variables)
    }

    mutating func decodeMethods(_ value: JSONValue?, at: String) -> MethodSet? {
        guard let value else { error(at, "missing: expected a method such as \"GET\", a list, or \"*\""); return nil }
        switch value {
        case .string("*"):
            return .any
        case .string(let method):
            return validMethod(method, at: at).map { .only([$0]) }
        case .array(let items) where !items.isEmpty:
            var methods: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let method) = item else {
                    error("\(at)[\(index)]", "expected a method name, found \(found(item))")
                    continue
                }
                if method == "*" { return .any }
                if let method = validMethod(method, at: "\(at)[\(index)]") { methods.append(method) }
            }
            return methods.isEmpty ? nil : .only(methods)
        default:
            error(at, "expected a method such as \"GET\", a list such as [\"GET\", \"HEAD\"], or \"*\", found \(found(value))")
            return nil
        }
    }

    mutating func validMethod(_ method: String, at: String) -> String? {
        let upper = method.uppercased()
        guard !upper.isEmpty, upper.allSatisfy({ $0.isLetter && $0.isASCII || $0 == "-" }) else {
            error(at, "expected an HTTP method such as \"GET\", found \(JSONText.quoted(method))")
            return nil
        }
        guard Self.registeredMethods.contains(upper) else {
            // A typo ("GTE") made a route no request could ever reach.
            let near = Self.registeredMethods.compactMap { known in
                EditDistance.bounded(Array(upper.utf8), known.utf8, bound: 2).map { (distance: $0, method: known) }
            }.min { $0.distance < $1.distance }
            let hint =
                near.map { "; did you mean \(JSONText.quoted($0.method))?" }
                ?? "; known: \(MockFileName.knownMethods.joined(separator: ", ")) and the other methods registered with IANA (PROPFIND, QUERY, …)"
            error(at, "unknown HTTP method \(JSONText.quoted(method))" + hint)
            return nil
        }
        return upper
    }

    static var registeredMethods: [String] { HTTPMethods.registered }

    mutating func decodePath(_ route: JSONValue, at: String) -> PathPattern? {
        switch (route["path"], route["pathPattern"]) {
        case (nil, nil):
            error(at, "missing \"path\" (such as \"/api/users/:id\") or \"pathPattern\" (a regular expression)")
            return nil
        case (.some, .some):
            error(at, "has both \"path\" and \"pathPattern\"; keep one")
            return nil
        case (let path?, nil):
            guard case .string(let text) = path, text.hasPrefix("/") else {
                error(at + ".path", "expected a path starting with \"/\", found \(found(path))")
                return nil
            }
            let pattern = PathPattern.parse(text)
            if case .segments(let segments, _) = pattern, let rest = segments.firstIndex(of: .rest), rest != segments.count - 1 {
                error(at + ".path", "\"**\" matches the rest of the path, so it must be the last segment, found \(JSONText.quoted(text))")
                return nil
            }
            return pattern
        case (nil, let pattern?):
            guard case .string(let text) = pattern else {
                error(at + ".pathPattern", "expected a regular expression as a string, found \(found(pattern))")
                return nil
            }
            do {
                return .regex(try Regex(text), source: text)
            } catch {
                self.error(at + ".pathPattern", "not a valid regular expression: \(error)")
                return nil
            }
        }
    }

    mutating func decodeMatch(_ value: JSONValue, at: String) -> [Condition] {
        guard case .object = value else {
            error(at, "expected an object with headers, query, json or text, found \(found(value))")
            return []
        }
        checkKeys(value, allowed: Self.matchKeys, at: at)
        var conditions: [Condition] = []
        for (key, kind) in [("headers", true), ("query", false)] {
            guard let list = value[key] else { continue }
            guard case .object(let members) = list else {
                error("\(at).\(key)", "expected an object of names and values (\"*\" = present), found \(found(list))")
                continue
            }
            for member in members {
                guard case .string(let pattern) = member.value else {
                    error(
                        "\(at).\(key).\(member.key)",
                        "expected a string (\"*\" = present, * matches any text), found \(found(member.value))")
                    continue
                }
                conditions.append(
                    kind ? .header(name: member.key, pattern: Glob(pattern)) : .query(name: member.key, pattern: Glob(pattern)))
            }
        }
        if let json = value["json"] { conditions.append(.json(json)) }
        if let text = value["text"] {
            if case .string(let string) = text {
                conditions.append(.text(string))
            } else {
                error(at + ".text", "expected a string the body must contain, found \(found(text))")
            }
        }
        return conditions
    }

    mutating func decodeResponse(_ value: JSONValue, at: String, source: String) -> RouteResponse? {
        guard case .object = value else { error(at, "expected a response object, found \(found(value))"); return nil }
        let errorsBefore = diagnostics.count
        checkKeys(value, allowed: Self.responseKeys, at: at)

        var status = 200
        if let raw = value["status"] {
            if case .number(let text) = raw, let code = Int(text), (100...599).contains(code) {
                status = code
            } else {
                error(at + ".status", "expected an integer 100-599, found \(found(raw))")
            }
        }
        var headers: [HTTPHeader] = []
        if let raw = value["headers"] {
            if case .object(let members) = raw {
                for member in members {
                    if case .string(let text) = member.value {
                        headers.append(HTTPHeader(member.key, text))
                    } else {
                        error("\(at).headers.\(member.key)", "expected a string, found \(found(member.value))")
                    }
                }
            } else {
                error(at + ".headers", "expected an object of header names and string values, found \(found(raw))")
            }
        }
        let delay = value["delayMs"].flatMap { decodeDelay($0, at: at + ".delayMs") }
        let then = value["then"].flatMap { decodeThen($0, at: at + ".then") }
        var fault: Fault?
        if let raw = value["fault"] {
            if case .string(let text) = raw, let parsed = Fault(rawValue: text) {
                fault = parsed
            } else {
                error(
                    at + ".fault",
                    "expected one of \(Fault.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), found \(found(raw))")
            }
        }
        var template = false
        if let raw = value["template"] {
            if case .bool(let flag) = raw {
                template = flag
            } else {
                error(at + ".template", "expected true or false, found \(found(raw))")
            }
        }

        let bodies = ["json", "text", "file"].filter { value[$0] != nil }
        if bodies.count > 1 {
            error(at, "has \(bodies.map { "\"\($0)\"" }.joined(separator: " and ")); a response has at most one body")
        }
        var bodyBytes: [UInt8]?
        var contentType: String?
        if let json = value["json"] {
            if let graphQLOperation {
                graphQLAnswers.append(
                    GraphQLWrittenAnswer(operation: graphQLOperation, answer: json, file: file, place: at + ".json", template: template))
            }
            bodyBytes = Array(json.serialized.utf8)
            contentType = ContentType.json
        } else if let raw = value["text"] {
            if case .string(let text) = raw {
                bodyBytes = Array(text.utf8)
                contentType = ContentType.text
            } else {
                error(at + ".text", "expected a string, found \(found(raw))")
            }
        } else if let raw = value["file"] {
            if case .string(let path) = raw {
                if let bytes = readBodyFile(path, at: at + ".file") {
                    bodyBytes = bytes
                    contentType = Self.contentType(forFile: path)
                }
            } else {
                error(at + ".file", "expected a path relative to the mock root, found \(found(raw))")
            }
        }
        if fault == .truncated && bodies.isEmpty {
            error(at + ".fault", "\"truncated\" sends part of a body, so the response needs a json, text or file body")
        }
        if template && bodies.isEmpty && value["stream"] == nil {
            error(at + ".template", "a template needs a json, text or file body to render")
        }
        guard diagnostics[errorsBefore...].allSatisfy({ $0.severity == .warning }) else { return nil }

        let body: RouteResponse.Body
        if let raw = value["stream"] {
            if fault == .timeout || fault == .truncated {
                error(
                    at + ".fault",
                    "a stream ends by \"cutAfter\" (with \"fault\": \"reset\" for a reset); \"\(fault!.rawValue)\" does not apply")
            }
            guard let stream = decodeStream(raw, at: at + ".stream", body: bodyBytes, fault: fault, template: template) else { return nil }
            var all = headers
            let type = stream.contentType ?? (bodyBytes == nil ? nil : contentType)
            if let type, all.first(named: "Content-Type") == nil { all.insert(HTTPHeader("Content-Type", type), at: 0) }
            if stream.unit == "events", all.first(named: "Cache-Control") == nil { all.append(HTTPHeader("Cache-Control", "no-cache")) }
            body = .stream(stream, headers: all, origin: origin(source))
        } else if fault == .reset || fault == .timeout {
            body = .none
        } else if template, let bytes = bodyBytes {
            var all = headers
            if let contentType, all.first(named: "Content-Type") == nil { all.insert(HTTPHeader("Content-Type", contentType), at: 0) }
            do {
                let effectiveType = all.first(named: "Content-Type") ?? ""
                body = .template(
                    try ResponseTemplate(
                        text: String(decoding: bytes, as: UTF8.self), json: effectiveType.contains("json"),
                        status: status, headers: all, origin: origin(source)))
            } catch {
                self.error(at, "the template does not parse: \(error)")
                return nil
            }
        } else {
            body = .prepared(
                builder.prepare(
                    status: status, contentType: bodyBytes == nil ? nil : contentType, headers: headers,
                    body: ResponseBody(bodyBytes ?? []), origin: origin(source)))
        }
        return RouteResponse(body: body, delay: delay, fault: fault, status: status, then: then)
    }

    mutating func decodeDelay(_ value: JSONValue, at: String) -> Delay? {
        let expected = "expected milliseconds as a whole number 0-\(Self.maximumDelayMilliseconds), or {\"min\": 100, \"max\": 800}"
        switch value {
        case .number(let text):
            if let milliseconds = Int(text), (0...Self.maximumDelayMilliseconds).contains(milliseconds) {
                return Delay(milliseconds: milliseconds)
            }
        case .object:
            checkKeys(value, allowed: ["min", "max"], at: at)
            if case .number(let minText)? = value["min"], case .number(let maxText)? = value["max"],
                let minimum = Int(minText), let maximum = Int(maxText),
                0 <= minimum, minimum <= maximum, maximum <= Self.maximumDelayMilliseconds
            {
                return Delay(minimum: minimum, maximum: maximum)
            }
        default:
            break
        }
        error(at, "\(expected), found \(found(value))")
        return nil
    }

    /// A body file: relative to the root and inside it, read now.
    mutating func readBodyFile(_ path: String, at: String) -> [UInt8]? {
        let rootDisplay = PathText.withoutTrailingSlashes(root)
        if path.hasPrefix("/") {
            error(at, "expected a path relative to the mock root (\(rootDisplay)), found the absolute path \(JSONText.quoted(path))")
            return nil
        }
        let full = root + "/" + path
        guard let resolvedRoot = files.realPath(root), let resolved = files.realPath(full) else {
            error(at, "no such file: \(rootDisplay)/\(path)")
            return nil
        }
        guard resolved.hasPrefix(resolvedRoot + "/") else {
            error(at, "\(JSONText.quoted(path)) is outside the mock root \(rootDisplay); body files must stay inside it")
            return nil
        }
        bodyFiles.insert(String(resolved.dropFirst(resolvedRoot.count + 1)))
        do {
            return try files.read(resolved).array
        } catch {
            self.error(at, error.reason)
            return nil
        }
    }

    static func contentType(forFile path: String) -> String {
        let lower = path.lowercased()
        if lower.hasSuffix(".json") { return ContentType.json }
        if lower.hasSuffix(".txt") { return ContentType.text }
        if lower.hasSuffix(".html") || lower.hasSuffix(".htm") { return "text/html; charset=utf-8" }
        if lower.hasSuffix(".xml") { return "application/xml" }
        if lower.hasSuffix(".csv") { return "text/csv; charset=utf-8" }
        if lower.hasSuffix(".png") { return "image/png" }
        if lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") { return "image/jpeg" }
        // The types the recorder saves bodies under, so a body file is served as what it is.
        if lower.hasSuffix(".gif") { return "image/gif" }
        if lower.hasSuffix(".webp") { return "image/webp" }
        if lower.hasSuffix(".svg") { return "image/svg+xml" }
        if lower.hasSuffix(".pdf") { return "application/pdf" }
        if lower.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if lower.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        return "application/octet-stream"
    }

    // MARK: - helpers

    mutating func string(_ value: JSONValue?, at: String) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value else { error(at, "expected a string, found \(found(value))"); return nil }
        return text
    }

    /// Unknown keys are errors (a typo would otherwise silently do nothing), with a suggestion.
    mutating func checkKeys(_ value: JSONValue, allowed: [String], at: String) {
        guard case .object(let members) = value else { return }
        for member in members where !allowed.contains(member.key) {
            let place = at.isEmpty ? member.key : at + "." + member.key
            let hint =
                EditDistance.nearest(to: member.key, in: allowed).map { "; did you mean \"\($0)\"?" }
                ?? "; known keys: \(allowed.joined(separator: ", "))"
            error(place, "unknown key \(JSONText.quoted(member.key))\(hint)")
        }
    }

    mutating func error(_ at: String, _ message: String) {
        diagnostics.append(Diagnostic(file: file, location: at.isEmpty ? nil : at, message))
    }

    /// How a found value is shown: scalars as written, containers by kind.
    func found(_ value: JSONValue) -> String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string(let text): JSONText.quoted(text.count > 60 ? String(text.prefix(60)) + "…" : text)
        default: value.serialized
        }
    }
}
