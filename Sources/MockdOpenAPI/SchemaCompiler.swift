import MockdCore

/// Turns the schema objects of a description into a `SchemaSet`, following `$ref`s (inside
/// the document and to files beside it) once each: a referenced schema compiles to one index
/// however often it is used, which is how cycles end.
struct SchemaCompiler {
    let documents: Documents
    let box = SchemaBox()
    var set: SchemaSet {
        get { box.set }
        nonmutating _modify { yield &box.set }
    }
    /// Compiled `$ref` targets by location.
    private var byLocation: [Location: Int] = [:]
    /// Unresolved references are errors; constructs mockd cannot check are warnings.
    private(set) var problems: [(location: Location, message: String, isError: Bool)] = []
    /// OpenAPI 3.0 (`nullable`, boolean `exclusiveMinimum`) rather than 3.1.
    let openAPI30: Bool

    init(documents: Documents, openAPI30: Bool) {
        self.documents = documents
        self.openAPI30 = openAPI30
    }

    mutating func compile(_ value: JSONValue, at location: Location) -> Int {
        if let reference = value["$ref"]?.stringValue {
            let target = Documents.target(of: reference, from: location)
            let index = compileTarget(target, reference: reference, from: location)
            // 3.1 allows keywords beside $ref; they apply together with the target (allOf).
            guard case .object(let members) = value, members.contains(where: { $0.key != "$ref" && !Self.annotations.contains($0.key) })
            else {
                return index
            }
            let rest = JSONValue.object(members.filter { $0.key != "$ref" })
            var schema = Schema()
            schema.allOf = [index, compile(rest, at: location)]
            return append(schema)
        }
        switch value {
        case .bool(let flag):
            return append(Schema(constant: flag))
        case .object:
            break
        default:
            problems.append((location, "a schema must be an object or a boolean", true))
            return append(Schema(constant: true))
        }
        let slot = append(Schema())
        let built = build(value, at: location)
        set.schemas[slot] = built
        return slot
    }

    private static let annotations: Set<String> = ["description", "summary", "title", "$comment"]

    private mutating func compileTarget(_ target: Location, reference: String, from: Location) -> Int {
        if let index = byLocation[target] { return index }
        let slot = append(Schema())
        byLocation[target] = slot
        guard let value = documents.value(at: target) else {
            problems.append((from, "unresolved $ref \(reference)", true))
            set.schemas[slot] = Schema(constant: true)
            return slot
        }
        let compiled = compile(value, at: target)
        set.schemas[slot].reference = compiled
        if let name = target.pointer.split(separator: "/").last {
            set.schemas[slot].referenceName = String(name).replacing("~1", with: "/").replacing("~0", with: "~")
        }
        return slot
    }

    private mutating func append(_ schema: Schema) -> Int {
        set.schemas.append(schema)
        return set.schemas.count - 1
    }

    private mutating func build(_ value: JSONValue, at location: Location) -> Schema {
        var schema = Schema()
        switch value["type"] {
        case .string(let name)?:
            schema.types = Schema.Kind(rawValue: name).map { [$0] }
            if schema.types == nil { problems.append((location.appending("type"), "unknown type \(name)", true)) }
        case .array(let names)?:
            schema.types = names.compactMap { $0.stringValue.flatMap(Schema.Kind.init(rawValue:)) }
        default:
            break
        }
        if value["nullable"]?.boolValue == true {
            if let types = schema.types, !types.contains(.null) { schema.types = types + [.null] }
            if let values = value["enum"]?.arrayValue, !values.contains(.null) { schema.enumValues = values + [.null] }
        }
        if schema.enumValues == nil { schema.enumValues = value["enum"]?.arrayValue }
        schema.constValue = value["const"]
        schema.format = value["format"]?.stringValue
        schema.minimum = value["minimum"]?.doubleValue
        schema.maximum = value["maximum"]?.doubleValue
        switch value["exclusiveMinimum"] {
        case .bool(true)?: schema.exclusiveMinimum = schema.minimum; schema.minimum = nil
        case .number?: schema.exclusiveMinimum = value["exclusiveMinimum"]?.doubleValue
        default: break
        }
        switch value["exclusiveMaximum"] {
        case .bool(true)?: schema.exclusiveMaximum = schema.maximum; schema.maximum = nil
        case .number?: schema.exclusiveMaximum = value["exclusiveMaximum"]?.doubleValue
        default: break
        }
        schema.multipleOf = value["multipleOf"]?.doubleValue.flatMap { $0 > 0 ? $0 : nil }
        schema.minLength = value["minLength"]?.intValue
        schema.maxLength = value["maxLength"]?.intValue
        if let source = value["pattern"]?.stringValue {
            if let regex = try? Regex(source) {
                schema.pattern = Schema.Pattern(source: source, regex: regex)
            } else {
                problems.append((location.appending("pattern"), "a pattern mockd cannot compile: \(source) (not checked)", false))
            }
        }
        if let items = value["items"] {
            if case .array(let tuple) = items {
                schema.prefixItems = tuple.enumerated().map { compile($0.element, at: location.appending("items", String($0.offset))) }
            } else {
                schema.items = compile(items, at: location.appending("items"))
            }
        }
        if let prefix = value["prefixItems"]?.arrayValue {
            schema.prefixItems = prefix.enumerated().map { compile($0.element, at: location.appending("prefixItems", String($0.offset))) }
        }
        schema.minItems = value["minItems"]?.intValue
        if let contains = value["contains"] { schema.contains = compile(contains, at: location.appending("contains")) }
        schema.minContains = value["minContains"]?.intValue
        schema.maxContains = value["maxContains"]?.intValue
        schema.maxItems = value["maxItems"]?.intValue
        schema.uniqueItems = value["uniqueItems"]?.boolValue ?? false
        for member in value["properties"]?.objectValue ?? [] {
            schema.properties.append((member.key, compile(member.value, at: location.appending("properties", member.key))))
        }
        schema.required = value["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        switch value["additionalProperties"] {
        case .bool(false)?: schema.additionalProperties = .none
        case .object(let members)? where !members.isEmpty:
            schema.additionalProperties = .schema(compile(value["additionalProperties"]!, at: location.appending("additionalProperties")))
        default: break
        }
        schema.minProperties = value["minProperties"]?.intValue
        schema.maxProperties = value["maxProperties"]?.intValue
        schema.allOf = list(value, "allOf", location)
        schema.anyOf = list(value, "anyOf", location)
        schema.oneOf = list(value, "oneOf", location)
        if let not = value["not"] { schema.not = compile(not, at: location.appending("not")) }
        schema.readOnly = value["readOnly"]?.boolValue ?? false
        schema.writeOnly = value["writeOnly"]?.boolValue ?? false
        schema.example = value["example"] ?? value["examples"]?.arrayValue?.first
        schema.defaultValue = value["default"]
        if let xml = value["xml"] {
            schema.xmlName = xml["name"]?.stringValue
            schema.xmlAttribute = xml["attribute"]?.boolValue ?? false
            schema.xmlWrapped = xml["wrapped"]?.boolValue ?? false
        }
        return schema
    }

    private mutating func list(_ value: JSONValue, _ keyword: String, _ location: Location) -> [Int] {
        (value[keyword]?.arrayValue ?? []).enumerated().map { compile($0.element, at: location.appending(keyword, String($0.offset))) }
    }
}
