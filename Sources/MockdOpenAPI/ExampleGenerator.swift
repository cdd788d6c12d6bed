import MockdCore

/// Makes a value that satisfies a schema: the same value every time (no random source), or a
/// random valid one from a seed (`Prefer: dynamic=true`). Recursion is bounded: past
/// `depthBound` objects get only their required properties and arrays their fewest items,
/// which ends every schema that has a finite valid value.
struct ExampleGenerator {
    let set: SchemaSet
    /// What the body is for: responses leave out `writeOnly` properties, requests `readOnly` ones.
    var forResponse = true
    var random: SplitMix64?
    static let depthBound = 4
    static let hardLimit = 24

    mutating func generate(_ index: Int) -> JSONValue {
        value(index, depth: 0)
    }

    private mutating func value(_ index: Int, depth: Int) -> JSONValue {
        var schema = merged(index, depth: 0)
        if depth >= Self.hardLimit { return schema.allows(.null) ? .null : .object([]) }
        if random == nil {
            if let example = schema.example { return example }
            if let value = schema.defaultValue { return value }
        }
        if let constant = schema.constValue { return constant }
        if let values = schema.enumValues, !values.isEmpty {
            let usable = values.filter { $0 != .null }
            let pool = usable.isEmpty ? values : usable
            return pool[pick(pool.count)]
        }
        let branches = schema.oneOf.isEmpty ? schema.anyOf : schema.oneOf
        if !branches.isEmpty {
            let branch = merged(branches[pick(branches.count)], depth: 0)
            schema = Self.merge(schema, branch)
        }
        if schema.constant == false { return .null }
        let kinds = (schema.types ?? Self.inferredKinds(schema)).filter { $0 != .null }
        if kinds.isEmpty { return .null }
        if depth >= Self.depthBound, schema.allows(.null), schema.types != nil { return .null }
        switch kinds[pick(kinds.count)] {
        case .null: return .null
        case .boolean: return .bool(random == nil ? true : pick(2) == 0)
        case .integer: return integer(schema)
        case .number: return number(schema)
        case .string: return .string(string(schema))
        case .array:
            let minimum = schema.minItems ?? 0
            let maximum = schema.maxItems ?? max(minimum, 3)
            var count = depth >= Self.depthBound ? minimum : max(minimum, min(1, maximum))
            if random != nil, depth < Self.depthBound { count = minimum + pick(max(1, min(maximum, minimum + 3) - minimum + 1)) }
            var items: [JSONValue] = []
            // `contains`: the first `minContains` (1 by default) items are made from it.
            if let contains = schema.contains {
                let needed = schema.minContains ?? 1
                for _ in 0..<needed { items.append(value(contains, depth: depth + 1)) }
                count = max(0, count - needed)
            }
            for offset in 0..<count {
                if offset < schema.prefixItems.count {
                    items.append(value(schema.prefixItems[offset], depth: depth + 1))
                } else if let item = schema.items {
                    items.append(value(item, depth: depth + 1))
                } else {
                    items.append(.string("item"))
                }
            }
            return .array(items)
        case .object:
            var members: [(key: String, value: JSONValue)] = []
            for property in schema.properties {
                let target = set.resolved(property.schema)
                if forResponse ? target.writeOnly : target.readOnly { continue }
                let required = schema.required.contains(property.name)
                if !required, depth >= Self.depthBound { continue }
                members.append((property.name, value(property.schema, depth: depth + 1)))
            }
            for name in schema.required
            where !members.contains(where: { $0.key == name }) && !schema.properties.contains(where: { $0.name == name }) {
                members.append((name, .string("value")))
            }
            return .object(members)
        }
    }

    /// The kinds a schema without `type` implies by its keywords.
    static func inferredKinds(_ schema: Schema) -> [Schema.Kind] {
        if !schema.properties.isEmpty || !schema.required.isEmpty { return [.object] }
        if schema.items != nil || !schema.prefixItems.isEmpty { return [.array] }
        if schema.minLength != nil || schema.maxLength != nil || schema.format != nil || schema.pattern != nil { return [.string] }
        if schema.minimum != nil || schema.maximum != nil { return [.number] }
        return [.object]
    }

    /// A schema with its `allOf` parts folded in (properties and required lists joined,
    /// bounds tightened), followed through references.
    private func merged(_ index: Int, depth: Int) -> Schema {
        var schema = set.resolved(index)
        guard depth < 16 else { return schema }
        let parts = schema.allOf
        schema.allOf = []
        for part in parts { schema = Self.merge(schema, merged(part, depth: depth + 1)) }
        return schema
    }

    static func merge(_ base: Schema, _ other: Schema) -> Schema {
        var result = base
        if let types = other.types {
            result.types =
                result.types.map { mine in
                    mine.filter { types.contains($0) || ($0 == .number && types.contains(.integer)) }.map {
                        $0 == .number && types.contains(.integer) ? .integer : $0
                    }
                } ?? types
        }
        for property in other.properties where !result.properties.contains(where: { $0.name == property.name }) {
            result.properties.append(property)
        }
        for name in other.required where !result.required.contains(name) { result.required.append(name) }
        result.enumValues = result.enumValues ?? other.enumValues
        result.constValue = result.constValue ?? other.constValue
        result.format = result.format ?? other.format
        result.minimum = [result.minimum, other.minimum].compactMap { $0 }.max()
        result.maximum = [result.maximum, other.maximum].compactMap { $0 }.min()
        result.exclusiveMinimum = result.exclusiveMinimum ?? other.exclusiveMinimum
        result.exclusiveMaximum = result.exclusiveMaximum ?? other.exclusiveMaximum
        result.minLength = [result.minLength, other.minLength].compactMap { $0 }.max()
        result.maxLength = [result.maxLength, other.maxLength].compactMap { $0 }.min()
        result.minItems = [result.minItems, other.minItems].compactMap { $0 }.max()
        result.maxItems = [result.maxItems, other.maxItems].compactMap { $0 }.min()
        result.items = result.items ?? other.items
        result.example = result.example ?? other.example
        result.oneOf = result.oneOf.isEmpty ? other.oneOf : result.oneOf
        result.anyOf = result.anyOf.isEmpty ? other.anyOf : result.anyOf
        if case .any = result.additionalProperties { result.additionalProperties = other.additionalProperties }
        result.readOnly = result.readOnly || other.readOnly
        result.writeOnly = result.writeOnly || other.writeOnly
        return result
    }

    private mutating func pick(_ count: Int) -> Int {
        guard count > 1, random != nil else { return 0 }
        return Int(random!.next() % UInt64(count))
    }

    private mutating func integer(_ schema: Schema) -> JSONValue {
        var low = schema.minimum.map { Int($0.rounded(.up)) } ?? (schema.exclusiveMinimum.map { Int($0.rounded(.down)) + 1 } ?? Int.min)
        var high = schema.maximum.map { Int($0.rounded(.down)) } ?? (schema.exclusiveMaximum.map { Int($0.rounded(.up)) - 1 } ?? Int.max)
        if schema.format == "int32" { low = max(low, -2_147_483_648); high = min(high, 2_147_483_647) }
        var chosen = min(max(0, low), high)
        if random != nil, low <= high { chosen = Int.random(in: max(low, -1000)...max(min(high, 1000), max(low, -1000)), using: &random!) }
        if let step = schema.multipleOf, step >= 1 {
            let stepInt = Int(step)
            chosen = (chosen / stepInt) * stepInt
            if chosen < low { chosen += stepInt }
        }
        return .number(chosen)
    }

    private mutating func number(_ schema: Schema) -> JSONValue {
        let low = schema.minimum ?? schema.exclusiveMinimum.map { $0 + 0.5 } ?? -Double.greatestFiniteMagnitude
        let high = schema.maximum ?? schema.exclusiveMaximum.map { $0 - 0.5 } ?? Double.greatestFiniteMagnitude
        var chosen = min(max(0, low), high)
        if random != nil, low <= high {
            chosen = Double.random(in: max(low, -1000)...max(min(high, 1000), max(low, -1000)), using: &random!)
        }
        if let step = schema.multipleOf { chosen = (chosen / step).rounded(.up) * step }
        return .number(chosen)
    }

    private mutating func string(_ schema: Schema) -> String {
        if let example = Formats.example(schema.format) { return example }
        var text = "string"
        if random != nil {
            let letters = Array("abcdefghijklmnopqrstuvwxyz")
            text = String((0..<(3 + pick(8))).map { _ in letters[pick(letters.count)] })
        }
        let minimum = schema.minLength ?? 0
        if text.count < minimum { text += String(repeating: "x", count: minimum - text.count) }
        if let maximum = schema.maxLength, text.count > maximum { text = String(text.prefix(maximum)) }
        return text
    }
}

/// A small, fast, seedable generator: one seed, one sequence, on every platform.
struct SplitMix64: RandomNumberGenerator, Sendable {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
