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
        schema.contentEncoding = value["contentEncoding"]?.stringValue
        schema.minimum = number(value, "minimum", location)
        schema.maximum = number(value, "maximum", location)
        switch value["exclusiveMinimum"] {
        case .bool(true)?: schema.exclusiveMinimum = schema.minimum; schema.minimum = nil
        case .number?: schema.exclusiveMinimum = number(value, "exclusiveMinimum", location)
        default: break
        }
        switch value["exclusiveMaximum"] {
        case .bool(true)?: schema.exclusiveMaximum = schema.maximum; schema.maximum = nil
        case .number?: schema.exclusiveMaximum = number(value, "exclusiveMaximum", location)
        default: break
        }
        schema.multipleOf = number(value, "multipleOf", location)
        if let step = schema.multipleOf, step <= 0 {
            problems.append(
                (location.appending("multipleOf"), "expected a number above 0, found \(value["multipleOf"]!.serialized) (ignored)", false))
            schema.multipleOf = nil
        }
        schema.minLength = count(value, "minLength", location, generated: true)
        schema.maxLength = count(value, "maxLength", location)
        if let source = value["pattern"]?.stringValue {
            if let regex = try? Regex(source) {
                schema.pattern = Schema.Pattern(source: source, regex: regex, sample: PatternSample.parse(source))
                if schema.pattern?.sample == nil, value["example"] == nil, value["default"] == nil, value["enum"] == nil,
                    value["const"] == nil
                {
                    problems.append(
                        (
                            location.appending("pattern"),
                            "a pattern mockd does not generate strings for (a backreference, a lookaround, a Unicode property): \(source); answers made from this schema break it, give it an example",
                            false
                        ))
                }
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
        schema.minItems = count(value, "minItems", location, generated: true)
        if let contains = value["contains"] { schema.contains = compile(contains, at: location.appending("contains")) }
        schema.minContains = count(value, "minContains", location, generated: true)
        schema.maxContains = count(value, "maxContains", location)
        schema.maxItems = count(value, "maxItems", location)
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
        schema.minProperties = count(value, "minProperties", location)
        schema.maxProperties = count(value, "maxProperties", location)
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

    /// A numeric keyword; one that is not a finite number (`1e999`) is ignored, with a warning.
    private mutating func number(_ value: JSONValue, _ keyword: String, _ location: Location) -> Double? {
        guard let given = value[keyword], case .number = given else { return nil }
        guard let number = given.doubleValue, number.isFinite else {
            problems.append((location.appending(keyword), "expected a finite number, found \(given.serialized) (ignored)", false))
            return nil
        }
        return number
    }

    /// A length or count keyword: a non-negative integer, else ignored with a warning. One that
    /// asks more than the generator makes (`generated`) is kept, and the warning says so.
    private mutating func count(_ value: JSONValue, _ keyword: String, _ location: Location, generated: Bool = false) -> Int? {
        guard let given = value[keyword] else { return nil }
        guard let count = given.intValue, count >= 0 else {
            problems.append((location.appending(keyword), "expected a non-negative integer, found \(given.serialized) (ignored)", false))
            return nil
        }
        if generated, count > ExampleGenerator.sizeLimit {
            let limit = ExampleGenerator.sizeLimit
            problems.append(
                (
                    location.appending(keyword),
                    "\(count) is more than mockd generates (\(limit)): a generated value is cut to \(limit), which breaks the schema; give an example",
                    false
                ))
        }
        return count
    }

    private mutating func list(_ value: JSONValue, _ keyword: String, _ location: Location) -> [Int] {
        (value[keyword]?.arrayValue ?? []).enumerated().map { compile($0.element, at: location.appending(keyword, String($0.offset))) }
    }
}
