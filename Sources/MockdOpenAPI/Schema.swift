import MockdCore

/// JSON Schema (as OpenAPI 3.0 and 3.1 use it), compiled once at load into plain values.
/// Schemas refer to each other by index into a `SchemaSet`, so a recursive schema is a cycle
/// of indices: nothing is expanded, nothing is retained in a cycle.
struct Schema: Sendable {
    enum Kind: String, Sendable, CaseIterable {
        case null, boolean, integer, number, string, array, object
    }

    /// `true` (anything) or `false` (nothing) as a whole schema.
    var constant: Bool?
    /// nil: any type.
    var types: [Kind]?
    var enumValues: [JSONValue]?
    var constValue: JSONValue?
    var format: String?
    /// OpenAPI 3.1 `contentEncoding` (`base64`): the string is text in that encoding.
    var contentEncoding: String?
    var minimum: Double?
    var maximum: Double?
    var exclusiveMinimum: Double?
    var exclusiveMaximum: Double?
    var multipleOf: Double?
    var minLength: Int?
    var maxLength: Int?
    var pattern: Pattern?
    var items: Int?
    var prefixItems: [Int] = []
    var minItems: Int?
    /// `contains` with `minContains` (1 when absent) and `maxContains`.
    var contains: Int?
    var minContains: Int?
    var maxContains: Int?
    var maxItems: Int?
    var uniqueItems = false
    var properties: [(name: String, schema: Int)] = []
    var required: [String] = []
    /// nil: any extra property; an index: each extra one matches it; `.none` false.
    var additionalProperties: Additional = .any
    var minProperties: Int?
    var maxProperties: Int?
    var allOf: [Int] = []
    var anyOf: [Int] = []
    var oneOf: [Int] = []
    var not: Int?
    var readOnly = false
    var writeOnly = false
    var example: JSONValue?
    var defaultValue: JSONValue?
    /// A `$ref` beside nothing else: this schema is the target.
    var reference: Int?
    /// The last token of the `$ref` target this schema stands for (`Pet`): an XML root's name.
    var referenceName: String?
    /// The `xml` object: the element's name, written as an attribute, an array wrapped.
    var xmlName: String?
    var xmlAttribute = false
    var xmlWrapped = false

    enum Additional: Sendable {
        case any, none, schema(Int)
    }

    /// A compiled `pattern`; `Regex` is immutable but not yet marked Sendable.
    struct Pattern: @unchecked Sendable {
        let source: String
        let regex: Regex<AnyRegexOutput>
        /// What strings are made from; nil for a pattern mockd does not generate (`PatternSample`).
        let sample: PatternSample.Node?
    }

    func allows(_ kind: Kind) -> Bool {
        guard let types else { return true }
        return types.contains(kind) || (kind == .integer && types.contains(.number))
    }
}

/// The schemas of one document, shared by its validators and dynamic bodies (one copy, not
/// one per operation). Filled while the document loads, on one thread, and only read once
/// the snapshot that holds it is published.
final class SchemaBox: @unchecked Sendable {
    var set = SchemaSet()
}

/// Every schema compiled for one document.
struct SchemaSet: Sendable {
    var schemas: [Schema] = []

    subscript(index: Int) -> Schema { schemas[index] }

    /// Follows plain references; a cycle of plain references resolves to "anything".
    func resolved(_ index: Int) -> Schema {
        resolvedIndex(index).map { schemas[$0] } ?? Self.anything
    }

    /// The position of what `index` resolves to; nil for a cycle of plain references.
    func resolvedIndex(_ index: Int) -> Int? {
        var current = index
        for _ in 0..<32 {
            guard let next = schemas[current].reference else { return current }
            current = next
        }
        return nil
    }

    static let anything = Schema(constant: true)
}
