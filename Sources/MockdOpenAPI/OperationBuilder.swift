import MockdCore

/// Builds the operations of one document: for each, its answers in the order of choice (lowest
/// 2xx, else `default`, else the first documented), each body made once, and its validator.
struct OperationBuilder {
    let documents: Documents
    var compiler: SchemaCompiler
    let document: String
    let file: String
    let basePath: String
    let root: JSONValue
    let checkExamples: Bool
    var diagnostics: [Diagnostic] = []

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    mutating func operations(into builder: inout ResponseBuilder) -> [APIOperation] {
        var result: [APIOperation] = []
        let paths = Location(file: file, pointer: "/paths")
        for item in root["paths"]?.objectValue ?? [] {
            let itemLocation = paths.appending(item.key)
            guard let (pathItem, pathLocation) = documents.dereference(item.value, at: itemLocation) else {
                diagnostics.append(
                    Diagnostic(file: file, location: itemLocation.description, "unresolved $ref \(item.value["$ref"]?.stringValue ?? "")"))
                continue
            }
            let shared = pathItem["parameters"]?.arrayValue ?? []
            for method in Self.methods {
                guard let declared = pathItem[method] else { continue }
                // Documents split over files give an operation as a `$ref` to its own file; the
                // references inside it are then relative to that file (the location's).
                let declaredAt = pathLocation.appending(method)
                guard let (operation, location) = documents.dereference(declared, at: declaredAt) else {
                    diagnostics.append(
                        Diagnostic(
                            file: declaredAt.file, location: declaredAt.description,
                            "unresolved $ref \(declared["$ref"]?.stringValue ?? "")"))
                    continue
                }
                if let built = build(
                    method: method.uppercased(), path: item.key, operation, at: location, shared: (shared, pathLocation), into: &builder)
                {
                    result.append(built)
                }
            }
        }
        return result
    }

    private mutating func build(
        method: String, path: String, _ operation: JSONValue, at location: Location,
        shared: ([JSONValue], Location), into builder: inout ResponseBuilder
    ) -> APIOperation? {
        let source = "openapi \(document) \(method) \(path)"
        let fullPath = basePath + (path.hasPrefix("/") ? path : "/" + path)
        var responses: [OperationResponse] = []
        let documented = (operation["responses"]?.objectValue ?? []).filter { !$0.key.hasPrefix("x-") }
        for (offset, entry) in Self.ordered(documented).enumerated() {
            let responseLocation = location.appending("responses", entry.key)
            guard let (response, at) = documents.dereference(entry.value, at: responseLocation) else {
                diagnostics.append(
                    Diagnostic(
                        file: responseLocation.file, location: responseLocation.description,
                        "unresolved $ref \(entry.value["$ref"]?.stringValue ?? "")"))
                continue
            }
            let status = Self.status(entry.key)
            let numeric = status ?? (offset == 0 ? 200 : 500)
            var prepared = prepare(response, at: at, status: status, numeric: numeric, source: "\(source) \(entry.key)", into: &builder)
            if Self.isRange(entry.key) { prepared.markRange() }
            responses.append(prepared)
        }
        if responses.isEmpty {
            diagnostics.append(
                Diagnostic(
                    .warning, file: location.file, location: location.appending("responses").description,
                    "\(method) \(path) documents no response: answered with 501"))
            let prepared = builder.prepare(
                status: 501, contentType: ContentType.json, headers: [],
                body: ResponseBody(Array("{\"error\":\"\(method) \(path) documents no response\"}\n".utf8)),
                origin: .operation("\(source) no response"))
            responses.append(OperationResponse(status: 501, prepared: prepared))
        }
        let validator = RequestValidatorBuilder.build(operation, at: location, shared: shared, builder: &self)
        return APIOperation(
            method: method, pathTemplate: fullPath, responses: responses, validator: validator,
            security: security(operation), source: source)
    }

    /// Lowest 2xx first (an explicit status before the `2XX` range), then `default`, then the
    /// rest in document order.
    static func ordered(_ entries: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)] {
        let successes = entries.filter { status($0.key).map { (200...299).contains($0) } ?? false }.sorted {
            (isRange($0.key) ? 1 : 0, status($0.key)!) < (isRange($1.key) ? 1 : 0, status($1.key)!)
        }
        let fallback = entries.filter { $0.key == "default" }
        let rest = entries.filter { entry in !successes.contains { $0.key == entry.key } && entry.key != "default" }
        return successes + fallback + rest
    }

    /// `2XX`: a class of statuses rather than one.
    static func isRange(_ key: String) -> Bool { Int(key) == nil && status(key) != nil }

    /// `"200"` → 200, `"2XX"` → 200, `default` → nil.
    static func status(_ key: String) -> Int? {
        if let code = Int(key), (100...599).contains(code) { return code }
        if key.count == 3, key.uppercased().hasSuffix("XX"), let first = Int(key.prefix(1)), (1...5).contains(first) { return first * 100 }
        return nil
    }

    private mutating func prepare(
        _ response: JSONValue, at location: Location, status: Int?, numeric: Int, source: String,
        into builder: inout ResponseBuilder
    ) -> OperationResponse {
        // A documented header is sent when it has a value to send: its `example`, its first
        // `examples`, its schema's `default`, or (required) one made from its schema.
        var headers: [HTTPHeader] = []
        var headerSchemas: [(name: String, schema: Int)] = []
        for header in response["headers"]?.objectValue ?? [] where header.key.lowercased() != "content-type" {
            guard let (value, headerLocation) = documents.dereference(header.value, at: location.appending("headers", header.key)) else {
                continue
            }
            let schema = value["schema"].map { compiler.compile($0, at: headerLocation.appending("schema")) }
            if let schema { headerSchemas.append((header.key, schema)) }
            var example = value["example"]
            if example == nil, let first = value["examples"]?.objectValue?.first {
                example = documents.dereference(first.value, at: headerLocation.appending("examples", first.key))?.0["value"]
            }
            var text = (example ?? schema.flatMap { compiler.set.resolved($0).defaultValue }).map(Self.headerText)
            if text == nil, value["required"]?.boolValue == true {
                if let schema {
                    var generator = ExampleGenerator(set: compiler.set)
                    text = Self.headerText(generator.generate(schema))
                } else {
                    text = "value"
                }
            }
            if let text { headers.append(HTTPHeader(header.key, text)) }
        }
        // `Prefer: dynamic=true` makes every documented header from its schema.
        var dynamicHeaders: (@Sendable (UInt64) -> [HTTPHeader])?
        if !headerSchemas.isEmpty {
            let box = compiler.box
            let schemas = headerSchemas
            dynamicHeaders = { seed in
                var generator = ExampleGenerator(set: box.set, random: SplitMix64(seed: seed))
                return schemas.map { HTTPHeader($0.name, Self.headerText(generator.generate($0.schema))) }
            }
        }
        // A key that is not a media type (`description:` indented one level too deep) is named
        // with its place: an error for `mockd check`, a warning when serving the types beside it.
        var content: [(key: String, value: JSONValue)] = []
        for entry in response["content"]?.objectValue ?? [] {
            if Self.isMediaType(entry.key), entry.value.objectValue != nil {
                content.append(entry)
            } else {
                diagnostics.append(
                    Diagnostic(
                        checkExamples ? .error : .warning, file: location.file,
                        location: location.appending("content", entry.key).description,
                        "\(JSONText.quoted(entry.key)) is not a media type (expected type/subtype, such as application/json): not served"))
            }
        }
        guard !content.isEmpty else {
            let prepared = builder.prepare(
                status: numeric, contentType: nil, headers: headers, body: ResponseBody([]), origin: .operation("\(source) empty"))
            var response = OperationResponse(status: status, prepared: prepared)
            response.dynamicHeaders = dynamicHeaders
            return response
        }
        // Each media type is answered in full; the first by default, another when `Accept` prefers it.
        var representations = content.map { entry in
            represent(
                entry.key, entry.value, at: location.appending("content", entry.key), status: status, numeric: numeric,
                headers: headers, source: source, into: &builder)
        }
        for index in representations.indices { representations[index].dynamicHeaders = dynamicHeaders }
        var first = representations.removeFirst()
        first.alternatives = representations
        return first
    }

    private mutating func represent(
        _ mediaType: String, _ media: JSONValue, at mediaLocation: Location, status: Int?, numeric: Int,
        headers: [HTTPHeader], source: String, into builder: inout ResponseBuilder
    ) -> OperationResponse {
        let isJSON = Self.isJSON(mediaType)
        var schemaIndex: Int?
        if let schema = media["schema"] { schemaIndex = compiler.compile(schema, at: mediaLocation.appending("schema")) }
        var named: [(name: String, value: JSONValue)] = []
        for example in media["examples"]?.objectValue ?? [] {
            guard let (value, _) = documents.dereference(example.value, at: mediaLocation.appending("examples", example.key)),
                let content = value["value"]
            else { continue }
            named.append((example.key, content))
        }
        let body: JSONValue
        let how: String
        if let first = named.first {
            body = first.value
            how = "example \(JSONText.quoted(first.name))"
        } else if let example = media["example"] {
            body = example
            how = "example"
        } else if let schemaIndex {
            var generator = ExampleGenerator(set: compiler.set)
            body = generator.generate(schemaIndex)
            how = "generated"
        } else if let itemSchema = media["itemSchema"] {
            // OpenAPI 3.2's schema of each item of a sequence (a stream's events).
            let index = compiler.compile(itemSchema, at: mediaLocation.appending("itemSchema"))
            var generator = ExampleGenerator(set: compiler.set, random: SplitMix64(seed: 1))
            body = .array((0..<Self.generatedEvents).map { _ in generator.generate(index) })
            how = "generated"
        } else {
            body = .null
            how = "empty"
        }
        if checkExamples, let schemaIndex {
            let validator = SchemaValidator(set: compiler.set, forResponse: true)
            let places = named.map { ("examples." + $0.name, $0.value) } + (media["example"].map { [("example", $0)] } ?? [])
            for (place, value) in places {
                for violation in validator.violations(value, schemaIndex, at: place).prefix(3) {
                    diagnostics.append(
                        Diagnostic(
                            .warning, file: mediaLocation.file, location: mediaLocation.description,
                            "the example violates its schema: \(violation)"))
                }
            }
        }
        // XML types get XML: an example string as written, any other value written as XML.
        let bare = OperationValidator.bare(mediaType)
        let isXML = XMLBody.isXML(bare: bare)
        // A `text/event-stream` answer is events as they go on the wire, sent as a stream.
        let isEvents = bare == "text/event-stream"
        // A multipart answer is parts between boundaries its Content-Type names.
        let multipart =
            MultipartBody.isMultipart(bare: bare)
            ? MultipartBody(
                partTypes: Dictionary(
                    (media["encoding"]?.objectValue ?? []).compactMap { member in
                        member.value["contentType"]?.stringValue.map { (member.key, $0) }
                    }
                ) { first, _ in first }) : nil
        let contentType = multipart == nil ? mediaType : MultipartBody.contentType(mediaType)
        let set = compiler.set
        var eventsGenerator = ExampleGenerator(set: set, random: SplitMix64(seed: 1))
        func encoded(_ value: JSONValue, generated: Bool = false) -> [UInt8] {
            if isXML, value.stringValue == nil { return Array(XMLBody(set: set).document(value, schema: schemaIndex).utf8) }
            if isEvents {
                // 3.0 and 3.1 have no item schema: a schema generates one event's data, so a few are written.
                let isList = if case .array = value { true } else { false }
                if generated, let schemaIndex, !isList {
                    let more = (1..<Self.generatedEvents).map { _ in eventsGenerator.generate(schemaIndex) }
                    return EventStreamBody.wire(.array([value] + more))
                }
                return EventStreamBody.wire(value)
            }
            if let multipart, value.stringValue == nil { return multipart.body(value) }
            return Self.bytes(value, json: isJSON)
        }
        let bytes = how == "empty" ? [] : encoded(body, generated: how == "generated" && media["itemSchema"] == nil)
        func events(_ bytes: [UInt8]) -> ResponseStream? {
            isEvents ? bytes.withUnsafeBytes { ResponseStream.events(inText: $0) } : nil
        }
        let prepared = builder.prepare(
            status: numeric, contentType: contentType, headers: headers, body: ResponseBody(bytes), origin: .operation("\(source) \(how)"),
            stream: events(bytes))
        var examples: [(name: String, response: PreparedResponse)] = []
        for example in named {
            let exampleBytes = encoded(example.value)
            let response = builder.prepare(
                status: numeric, contentType: contentType, headers: headers, body: ResponseBody(exampleBytes),
                origin: .operation("\(source) example \(JSONText.quoted(example.name))"), stream: events(exampleBytes))
            examples.append((example.name, response))
        }
        var dynamic: (@Sendable (UInt64) -> [UInt8])?
        if let schemaIndex, isJSON || isXML {
            let box = compiler.box
            dynamic = { seed in
                var generator = ExampleGenerator(set: box.set, random: SplitMix64(seed: seed))
                let value = generator.generate(schemaIndex)
                if isXML { return Array(XMLBody(set: box.set).document(value, schema: schemaIndex).utf8) }
                return Array((value.serialized + "\n").utf8)
            }
        }
        var response = OperationResponse(status: status, prepared: prepared, examples: examples, dynamicBody: dynamic)
        response.mediaType = OperationValidator.bare(mediaType)
        if let schemaIndex, isJSON {
            let box = compiler.box
            response.bodyViolations = { body in SchemaValidator(set: box.set, forResponse: true).violations(body, schemaIndex, at: "body") }
        }
        return response
    }

    /// Events written for a stream documented by its schema alone.
    static let generatedEvents = 3

    /// `type/subtype` (either may be `*`), parameters allowed: what a `content` key must be.
    static func isMediaType(_ key: String) -> Bool {
        let parts = OperationValidator.bare(key).split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && !$0.contains(" ") }
    }

    static func isJSON(_ mediaType: String) -> Bool {
        isJSON(bare: OperationValidator.bare(mediaType))
    }

    /// The same for a type already bare (`OperationValidator.bare`: lower case, no parameters).
    static func isJSON(bare type: String) -> Bool {
        type == "application/json" || type.hasSuffix("+json") || type == "*/*"
    }

    static func bytes(_ value: JSONValue, json: Bool) -> [UInt8] {
        if !json, case .string(let text) = value { return Array(text.utf8) }
        return Array((value.prettyPrinted + "\n").utf8)
    }

    static func headerText(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .array(let items): items.map(headerText).joined(separator: ",")
        default: value.serialized
        }
    }

    /// The operation's `security`, else the document's; an empty requirement (`{}`) makes it open.
    private mutating func security(_ operation: JSONValue) -> [[SecurityScheme]] {
        guard let requirements = (operation["security"] ?? root["security"])?.arrayValue else { return [] }
        var alternatives: [[SecurityScheme]] = []
        for requirement in requirements {
            let names = requirement.objectValue?.map(\.key) ?? []
            if names.isEmpty { return [] }
            var schemes: [SecurityScheme] = []
            for name in names {
                let location = Location(file: file, pointer: "/components/securitySchemes/\(pointerToken(name))")
                guard let raw = root.at(pointer: location.pointer), let (scheme, _) = documents.dereference(raw, at: location) else {
                    diagnostics.append(
                        Diagnostic(
                            .warning, file: file, location: location.description, "security scheme \(name) is not defined (not checked)"))
                    continue
                }
                let key = scheme["name"]?.stringValue ?? ""
                switch (scheme["type"]?.stringValue, scheme["in"]?.stringValue) {
                case ("apiKey"?, "header"?): schemes.append(.apiKeyHeader(key))
                case ("apiKey"?, "query"?): schemes.append(.apiKeyQuery(key))
                case ("apiKey"?, "cookie"?): schemes.append(.apiKeyCookie(key))
                case ("http"?, _):
                    switch scheme["scheme"]?.stringValue?.lowercased() {
                    case "basic"?: schemes.append(.basic)
                    case "digest"?: schemes.append(.digest)
                    default: schemes.append(.bearer)
                    }
                case ("oauth2"?, _), ("openIdConnect"?, _): schemes.append(.bearer)
                default: continue
                }
            }
            if schemes.isEmpty { return [] }
            alternatives.append(schemes)
        }
        return alternatives
    }

    mutating func report(_ location: Location, _ message: String, warning: Bool = true) {
        diagnostics.append(Diagnostic(warning ? .warning : .error, file: location.file, location: location.description, message))
    }
}
