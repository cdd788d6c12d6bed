import MockdCore

/// The compiled checks for one operation's requests: parameters (path, query, header, cookie),
/// the body's Content-Type, the body against its schema. Runs on the request path: it only
/// reads compiled schemas; the body is parsed once, when a schema asks for it.
struct OperationValidator: RequestValidator {
    struct Parameter: Sendable {
        enum Place: String, Sendable { case path, query, header, cookie }
        var name: String
        var place: Place
        var required: Bool
        var schema: Int?
        /// `form` arrays in the query are repeated (`explode`, the default) or comma-separated.
        var explode: Bool
        var style: ParameterStyle = .form
        /// What the schema makes of the text, decided at load.
        var shape: Shape = .scalar
        /// An object's property names: an exploded `form` object sends each as a query parameter.
        var properties: [String] = []
        /// The length a `simple` path parameter's value may have when its schema is a plain
        /// string (no format, pattern, enum or composition): such a value is checked on the
        /// segment, without a JSON value or a walk of the schema. Nil otherwise; a value out of
        /// bounds is checked the long way, for its message.
        var plainLength: ClosedRange<Int>?
        /// `allowEmptyValue: true` (a query parameter): `?q=` passes whatever the schema says.
        var allowEmptyValue = false
        /// Declared with `content: {application/json: …}`, not a style: the value is one JSON
        /// text, parsed whole (not split at its commas), then checked against the schema.
        var isJSON = false

        enum Shape: Sendable { case scalar, array, object }
    }

    /// A media type the body may have, read once at load: the request path compares bare types.
    struct BodyType: Sendable {
        var mediaType: String
        /// `application/json` for `Application/JSON; charset=utf-8`.
        var bare: String
        var isJSON: Bool
        /// nil: not checked.
        var schema: Int?
        /// A form body is read into an object of its fields, then checked as JSON is.
        var form: Form?
        /// Fields whose `encoding` says `application/json`: their text is parsed as JSON.
        var jsonFields: Set<String> = []
        /// Fields that may be sent empty (Swagger 2.0 `formData` with `allowEmptyValue`, which
        /// the converter writes as the field's `encoding`): an empty one passes.
        var emptyFields: Set<String> = []

        enum Form: Sendable { case urlEncoded, multipart }

        init(mediaType: String, schema: Int?) {
            self.mediaType = mediaType
            bare = OperationValidator.bare(mediaType)
            isJSON = OperationBuilder.isJSON(bare: bare)
            self.schema = schema
            form = bare == "application/x-www-form-urlencoded" ? .urlEncoded : bare == "multipart/form-data" ? .multipart : nil
        }
    }

    var parameters: [Parameter]
    var bodyTypes: [BodyType]
    var bodyRequired: Bool
    let schemas: SchemaBox

    func violations(of request: MockRequest, pathParameters: PathParameters) -> [String] {
        var found: [String] = []
        // Made on first use, once: plain path parameters need no schema, and each read of the
        // box's set is checked for exclusive access.
        lazy var set = schemas.set
        lazy var validator = SchemaValidator(set: set)
        lazy var reader = ParameterReader(set: set)
        for parameter in parameters {
            // Spelt out only for a violation: a valid request makes no message text.
            var place: String { "\(parameter.place.rawValue).\(parameter.name)" }
            // Query and path parameters are read as their style spells them.
            if parameter.place == .query || parameter.place == .path {
                if parameter.allowEmptyValue, Self.isEmptyValue(parameter.name, in: request.query) { continue }
                if parameter.isJSON {
                    let text =
                        parameter.place == .query
                        ? request.query.first { $0.name == parameter.name }.map { $0.value ?? "" }
                        : pathParameters[parameter.name].map(String.init)
                    guard let text else {
                        if parameter.required { found.append("\(place): required, missing") }
                        continue
                    }
                    found += jsonViolations(text, parameter.schema, at: place, validator)
                    continue
                }
                if let bounds = parameter.plainLength, let text = pathParameters[parameter.name] {
                    // A text has no more scalars than bytes: few enough bytes need no count.
                    if bounds.lowerBound == 0 && text.utf8.count <= bounds.upperBound || bounds.contains(text.unicodeScalars.count) {
                        continue
                    }
                }
                let value =
                    parameter.place == .query
                    ? reader.query(parameter, request.query)
                    : pathParameters[parameter.name].map { reader.path(parameter, String($0)) }
                guard let value else {
                    if parameter.required { found.append("\(place): required, missing") }
                    continue
                }
                if let schema = parameter.schema, !validator.isValid(value, schema) {
                    found += validator.violations(value, schema, at: place)
                }
                continue
            }
            let values: [String]
            switch parameter.place {
            case .path, .query: values = []
            case .header: values = request.headers.filter { HTTPHeader.namesEqual($0.name, parameter.name) }.map(\.value)
            case .cookie: values = RequestCookies.value(parameter.name, in: request).map { [$0] } ?? []
            }
            if values.isEmpty {
                if parameter.required { found.append("\(place): required, missing") }
                continue
            }
            if parameter.isJSON {
                found += jsonViolations(values[0], parameter.schema, at: place, validator)
                continue
            }
            guard let schema = parameter.schema else { continue }
            let value = ParameterCoercion.value(values, schema: schema, in: set, explode: parameter.explode)
            if !validator.isValid(value, schema) { found += validator.violations(value, schema, at: place) }
        }
        guard !bodyTypes.isEmpty else { return found }
        if request.body.isEmpty {
            if bodyRequired { found.append("body: required, missing") }
            return found
        }
        guard let contentType = request.headers.first(named: "Content-Type") else {
            found.append(
                "header.Content-Type: required with a body, missing; expected \(bodyTypes.map(\.mediaType).joined(separator: " or "))")
            return found
        }
        let sentType = Self.bare(contentType)
        guard let match = bodyTypes.first(where: { Self.bareType(sentType, matches: $0.bare) }) else {
            found.append(
                "header.Content-Type: expected \(bodyTypes.map(\.mediaType).joined(separator: " or ")), found \(JSONText.quoted(contentType))"
            )
            return found
        }
        if let form = match.form, let schema = match.schema {
            let fields: [(name: String, value: String)]
            switch form {
            case .urlEncoded:
                fields = FormBody.urlEncoded(request.body)
            case .multipart:
                guard let boundary = FormBody.boundary(contentType), let parts = FormBody.multipart(request.body, boundary: boundary) else {
                    found.append("body: not multipart/form-data with the boundary its Content-Type names")
                    return found
                }
                fields = parts
            }
            let violations = validator.violations(
                formObject(fields, schema: schema, jsonFields: match.jsonFields, in: set), schema, at: "body")
            guard !match.emptyFields.isEmpty else { return found + violations }
            // A field that may be empty and is: what its schema says of it does not apply.
            let empty = match.emptyFields.filter { name in
                fields.contains { $0.name == name } && fields.allSatisfy { $0.name != name || $0.value.isEmpty }
            }
            return found
                + violations.filter { violation in
                    !empty.contains { violation.hasPrefix("body.\($0):") || violation.hasPrefix("body.\($0).") }
                }
        }
        guard let schema = match.schema, match.isJSON || OperationBuilder.isJSON(bare: sentType) else { return found }
        do {
            let body = try JSONParser.parse(request.body)
            found += validator.violations(body, schema, at: "body")
        } catch {
            found.append("body: invalid JSON: \(error.description)")
        }
        return found
    }

    /// Whether the query names `name` with nothing but empty values (`?q=`, `?q`).
    static func isEmptyValue(_ name: String, in query: [(name: String, value: String?)]) -> Bool {
        var named = false
        for item in query where item.name == name {
            guard item.value?.isEmpty ?? true else { return false }
            named = true
        }
        return named
    }

    /// A parameter declared with JSON `content`: its text parsed as JSON and checked against
    /// the schema; text that is no JSON is reported as such.
    private func jsonViolations(_ text: String, _ schema: Int?, at place: String, _ validator: SchemaValidator) -> [String] {
        guard let value = try? JSONParser.parse(Array(text.utf8)) else {
            return ["\(place): expected JSON (its content is application/json), found \(JSONText.quoted(text))"]
        }
        guard let schema, !validator.isValid(value, schema) else { return [] }
        return validator.violations(value, schema, at: place)
    }

    /// A form's fields as the object its schema describes: a repeated name is an array, each
    /// text read as its property's type (or parsed as JSON when its `encoding` says so).
    func formObject(_ fields: [(name: String, value: String)], schema: Int, jsonFields: Set<String>, in set: SchemaSet) -> JSONValue {
        let properties = ParameterReader.properties(schema, in: set)
        var names: [String] = []
        for field in fields where !names.contains(field.name) { names.append(field.name) }
        return .object(
            names.map { name in
                let values = fields.filter { $0.name == name }.map { $0.value }
                if jsonFields.contains(name), values.count == 1, let parsed = try? JSONParser.parse(Array(values[0].utf8)) {
                    return (name, parsed)
                }
                guard let property = properties.first(where: { $0.name == name }) else {
                    return (name, values.count == 1 ? .string(values[0]) : .array(values.map { .string($0) }))
                }
                return (name, ParameterCoercion.value(values, schema: property.schema, in: set, explode: true))
            })
    }

    /// The lengths a value of `schema` may have when the schema is a string with nothing to
    /// check but its length (see `Parameter.plainLength`); nil otherwise.
    static func plainLength(_ schema: Int?, in set: SchemaSet) -> ClosedRange<Int>? {
        guard let schema, let at = set.resolvedIndex(schema) else { return nil }
        let string = set.schemas[at]
        guard string.constant == nil, string.types == [.string], string.enumValues == nil, string.constValue == nil,
            string.format == nil, string.pattern == nil, string.allOf.isEmpty, string.anyOf.isEmpty, string.oneOf.isEmpty,
            string.not == nil
        else { return nil }
        let minimum = max(0, string.minLength ?? 0), maximum = string.maxLength ?? Int.max
        return minimum <= maximum ? minimum...maximum : nil
    }

    /// `application/json; charset=utf-8` matches `application/json`, `application/*` and `*/*`.
    static func mediaType(_ sent: String, matches documented: String) -> Bool {
        bareType(bare(sent), matches: bare(documented))
    }

    /// Both bare (`bare(_:)`).
    static func bareType(_ sentType: String, matches documentedType: String) -> Bool {
        if documentedType == "*/*" || documentedType == sentType { return true }
        if documentedType.hasSuffix("/*") { return sentType.hasPrefix(documentedType.dropLast()) }
        return false
    }

    /// `Application/JSON; charset=utf-8` → `application/json`. On the request path (the sent
    /// Content-Type): bytes, not Characters, and no generic reversed-collection trim, which is
    /// far slower.
    static func bare(_ mediaType: String) -> String {
        var bytes = mediaType.utf8[...]
        if let semicolon = bytes.firstIndex(of: UInt8(ascii: ";")) { bytes = bytes[..<semicolon] }
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes = bytes.dropLast() }
        var type = [UInt8](bytes)
        for index in type.indices where (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(type[index]) { type[index] += 32 }
        return String(decoding: type, as: UTF8.self)
    }
}

/// Parameters arrive as text: read them as the type their schema asks for, so `limit=abc`
/// is reported as `expected integer, found "abc"` and `limit=5` passes.
enum ParameterCoercion {
    static func value(_ values: [String], schema index: Int, in set: SchemaSet, explode: Bool) -> JSONValue {
        let kinds = ParameterReader.valueKinds(index, in: set)
        if kinds.contains(.array) {
            let parts =
                explode && values.count > 1
                ? values : values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            let items = ParameterReader.typed(index, in: set).flatMap { set.schemas[$0].items }.flatMap { set.resolvedIndex($0) }
            let itemKinds = items.flatMap { set.schemas[$0].types } ?? [.string]
            return .array(parts.map { scalar($0, kinds: itemKinds) })
        }
        return scalar(values[0], kinds: kinds)
    }

    static func scalar(_ text: String, kinds: [Schema.Kind]) -> JSONValue {
        if kinds.contains(.integer), let number = Int(text) { return .number(number) }
        // Beyond Int's range: still an integer (a schema's bounds and `format: int64` decide), as in a JSON body.
        if kinds.contains(.integer), Self.isIntegerText(text) { return .number(text) }
        // Exponent form (`1e2`, `2.5E-3`) too, as JSON writes numbers; an integral one is an
        // integer (`1e2` is 100), which the schema's check decides on the number, not its spelling.
        if kinds.contains(.number) || kinds.contains(.integer), Self.isNumberText(text) { return .number(text) }
        if kinds.contains(.boolean), text == "true" || text == "false" { return .bool(text == "true") }
        if kinds.contains(.null), text.isEmpty || text == "null" { return .null }
        if kinds.contains(.object), let parsed = try? JSONParser.parse(Array(text.utf8)) { return parsed }
        return .string(text)
    }

    /// A finite decimal number, with an exponent or not: no letter but `e`/`E` (Double also
    /// reads `inf`, `nan` and hexadecimal, which no API sends as a number).
    private static func isNumberText(_ text: String) -> Bool {
        guard let number = Double(text), number.isFinite else { return false }
        return text.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }
    }

    /// `-?[0-9]+`
    private static func isIntegerText(_ text: String) -> Bool {
        let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}

/// Compiles an operation's parameters and request body.
enum RequestValidatorBuilder {
    static func build(
        _ operation: JSONValue, at location: Location, shared: ([JSONValue], Location),
        builder: inout OperationBuilder
    ) -> OperationValidator? {
        var parameters: [OperationValidator.Parameter] = []
        let lists = [
            (shared.0, shared.1.appending("parameters")), (operation["parameters"]?.arrayValue ?? [], location.appending("parameters")),
        ]
        for (list, listLocation) in lists {
            for (offset, raw) in list.enumerated() {
                let parameterLocation = listLocation.appending(String(offset))
                guard let (value, at) = builder.documents.dereference(raw, at: parameterLocation) else {
                    builder.report(parameterLocation, "unresolved $ref \(raw["$ref"]?.stringValue ?? "") (parameter not checked)")
                    continue
                }
                guard let name = value["name"]?.stringValue,
                    let place = value["in"]?.stringValue.flatMap(OperationValidator.Parameter.Place.init(rawValue:))
                else {
                    continue
                }
                // Headers HTTP itself describes are the transport's, not the operation's (OpenAPI says to ignore them).
                if place == .header, ["accept", "content-type", "authorization"].contains(name.lowercased()) { continue }
                var schema: Int?
                if let raw = value["schema"] ?? value["content"]?.objectValue?.first?.value["schema"] {
                    schema = builder.compiler.compile(raw, at: at.appending("schema"))
                }
                let required = place == .path || value["required"]?.boolValue == true
                let isJSON = value["schema"] == nil && value["content"]?.objectValue?.first.map { OperationBuilder.isJSON($0.key) } == true
                let style = ParameterStyle.of(value, place: place)
                let explode = value["explode"]?.boolValue ?? (style == .form)
                var parameter = OperationValidator.Parameter(name: name, place: place, required: required, schema: schema, explode: explode)
                parameter.style = style
                parameter.isJSON = isJSON
                parameter.allowEmptyValue = place == .query && value["allowEmptyValue"]?.boolValue == true
                parameter.shape = isJSON ? .scalar : ParameterReader.shape(schema, in: builder.compiler.set)
                if parameter.shape == .object, let schema {
                    parameter.properties = ParameterReader.properties(schema, in: builder.compiler.set).map(\.name)
                }
                if place == .path, style == .simple, parameter.shape == .scalar, !isJSON {
                    parameter.plainLength = OperationValidator.plainLength(schema, in: builder.compiler.set)
                }
                // An operation's parameter replaces the path item's of the same name and place.
                parameters.removeAll { $0.name == name && $0.place == place }
                parameters.append(parameter)
            }
        }
        var bodyTypes: [OperationValidator.BodyType] = []
        var bodyRequired = false
        if let raw = operation["requestBody"] {
            let bodyLocation = location.appending("requestBody")
            if let (body, at) = builder.documents.dereference(raw, at: bodyLocation) {
                bodyRequired = body["required"]?.boolValue ?? false
                for media in body["content"]?.objectValue ?? [] {
                    let schema = media.value["schema"].map {
                        builder.compiler.compile($0, at: at.appending("content", media.key, "schema"))
                    }
                    var type = OperationValidator.BodyType(mediaType: media.key, schema: schema)
                    for field in media.value["encoding"]?.objectValue ?? [] {
                        if let fieldType = field.value["contentType"]?.stringValue, OperationBuilder.isJSON(fieldType) {
                            type.jsonFields.insert(field.key)
                        }
                        if field.value["allowEmptyValue"]?.boolValue == true { type.emptyFields.insert(field.key) }
                    }
                    bodyTypes.append(type)
                }
            } else {
                builder.report(bodyLocation, "unresolved $ref \(raw["$ref"]?.stringValue ?? "") (body not checked)")
            }
        }
        guard !parameters.isEmpty || !bodyTypes.isEmpty else { return nil }
        return OperationValidator(parameters: parameters, bodyTypes: bodyTypes, bodyRequired: bodyRequired, schemas: builder.compiler.box)
    }
}
