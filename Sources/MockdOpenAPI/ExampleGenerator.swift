import MockdCore
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Makes a value that satisfies a schema: the same value every time (no random source), or a
/// random valid one from a seed (`Prefer: dynamic=true`). Recursion is bounded: past
/// `depthBound` objects get only their required properties and arrays their fewest items,
/// which ends every schema that has a finite valid value.
///
/// A document's numbers are taken as they are written, so nothing here may trap on them:
/// bounds beyond `Int`'s range saturate, steps are checked, and sizes are bounded whatever
/// the schema asks (`sizeLimit` a string or an array, `nodeBudget` and `characterBudget` a
/// whole value), since one value is made at load for each answer and one per dynamic request.
struct ExampleGenerator {
    let set: SchemaSet
    /// What the body is for: responses leave out `writeOnly` properties, requests `readOnly` ones.
    var forResponse = true
    var random: SplitMix64?
    static let depthBound = 4
    static let hardLimit = 24
    /// The most characters a generated string has, and items a generated array: a `minLength`
    /// of 10^12 would otherwise ask for a terabyte. The compiler warns where a schema asks more.
    static let sizeLimit = 10_000
    /// The most values one generated value holds: a schema with two required properties of its
    /// own type doubles at every level. Past it, arrays and objects are made empty.
    static let nodeBudget = 20_000
    /// The most characters the strings of one generated value get for their `minLength`.
    static let characterBudget = 1_000_000
    /// How many `oneOf`/`anyOf` levels are entered, one branch inside another.
    static let branchLimit = 8
    private var nodesLeft = nodeBudget
    private var charactersLeft = characterBudget
    /// Schemas made while generating, numbered after the set's: a property that several
    /// `allOf` parts declare is the `allOf` of its declarations, the later ones winning where
    /// they disagree (a later part narrows the earlier).
    private var made: [Schema] = []
    private var madeFor: [[Int]: Int] = [:]

    init(set: SchemaSet, forResponse: Bool = true, random: SplitMix64? = nil) {
        self.set = set
        self.forResponse = forResponse
        self.random = random
    }

    mutating func generate(_ index: Int) -> JSONValue {
        value(index, depth: 0)
    }

    private mutating func value(_ index: Int, depth: Int) -> JSONValue {
        var schema = merged(index)
        if depth >= Self.hardLimit { return schema.allows(.null) ? .null : .object([]) }
        nodesLeft -= 1
        // The branch taken is merged in, and then its own `example`, `const`, `enum` and
        // composition apply as the schema's would: a `oneOf` inside an `anyOf` branch is entered.
        for _ in 0..<Self.branchLimit {
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
            if !schema.oneOf.isEmpty {
                let branches = schema.oneOf
                schema.oneOf = []
                schema = merge(schema, merged(branches[pick(branches.count)]))
            } else if !schema.anyOf.isEmpty {
                let branches = schema.anyOf
                schema.anyOf = []
                schema = merge(schema, merged(branches[pick(branches.count)]))
            } else {
                break
            }
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
        case .array: return array(schema, depth: depth)
        case .object: return object(schema, depth: depth)
        }
    }

    private mutating func array(_ schema: Schema, depth: Int) -> JSONValue {
        guard nodesLeft > 0 else { return .array([]) }
        let minimum = Self.size(schema.minItems ?? 0)
        let maximum = Self.size(schema.maxItems ?? max(minimum, 3))
        var count = depth >= Self.depthBound ? minimum : max(minimum, min(1, maximum))
        if random != nil, depth < Self.depthBound { count = minimum + pick(max(1, min(maximum, minimum + 3) - minimum + 1)) }
        var items: [JSONValue] = []
        // `contains`: the first `minContains` (1 by default) items are made from it.
        if let contains = schema.contains {
            let needed = Self.size(schema.minContains ?? 1)
            for _ in 0..<needed where nodesLeft > 0 { items.append(value(contains, depth: depth + 1)) }
            count = max(0, count - needed)
        }
        for offset in 0..<count {
            if nodesLeft <= 0 { break }
            if offset < schema.prefixItems.count {
                items.append(value(schema.prefixItems[offset], depth: depth + 1))
            } else if let item = schema.items {
                items.append(value(item, depth: depth + 1))
            } else {
                // Not made by `value`, so counted here: 9,000 arrays of 8,000 of these each
                // would otherwise pass the budget by (found by make fuzz).
                nodesLeft -= 1
                items.append(.string("item"))
            }
        }
        return .array(items)
    }

    private mutating func object(_ schema: Schema, depth: Int) -> JSONValue {
        guard nodesLeft > 0 else { return .object([]) }
        var members: [(key: String, value: JSONValue)] = []
        for property in schema.properties {
            let target = property.schema < set.schemas.count ? set.resolved(property.schema) : merged(property.schema)
            if forResponse ? target.writeOnly : target.readOnly { continue }
            let required = schema.required.contains(property.name)
            if !required, depth >= Self.depthBound || nodesLeft <= 0 { continue }
            members.append((property.name, value(property.schema, depth: depth + 1)))
        }
        for name in schema.required
        where !members.contains(where: { $0.key == name }) && !schema.properties.contains(where: { $0.name == name }) {
            members.append((name, .string("value")))
        }
        return .object(members)
    }

    /// The kinds a schema without `type` implies by its keywords.
    static func inferredKinds(_ schema: Schema) -> [Schema.Kind] {
        if !schema.properties.isEmpty || !schema.required.isEmpty { return [.object] }
        if schema.items != nil || !schema.prefixItems.isEmpty { return [.array] }
        if schema.minLength != nil || schema.maxLength != nil || schema.format != nil || schema.pattern != nil
            || schema.contentEncoding != nil
        {
            return [.string]
        }
        if schema.minimum != nil || schema.maximum != nil { return [.number] }
        return [.object]
    }

    private func resolved(_ index: Int) -> Schema {
        index < set.schemas.count ? set.resolved(index) : made[index - set.schemas.count]
    }

    /// A schema with its `allOf` parts folded in (properties and required lists joined,
    /// bounds tightened), followed through references. Each part is folded once, so parts
    /// that name each other end.
    private mutating func merged(_ index: Int) -> Schema {
        // Most schemas have no parts: no set to allocate for each value made.
        let schema = resolved(index)
        if schema.allOf.isEmpty { return schema }
        var folded: Set<Int> = [index]
        return merged(index, folded: &folded, depth: 0)
    }

    private mutating func merged(_ index: Int, folded: inout Set<Int>, depth: Int) -> Schema {
        var schema = resolved(index)
        guard depth < 16 else { return schema }
        let parts = schema.allOf
        schema.allOf = []
        let laterWins = index >= set.schemas.count
        for part in parts where folded.insert(part).inserted {
            schema = merge(schema, merged(part, folded: &folded, depth: depth + 1), otherWins: laterWins)
        }
        return schema
    }

    /// `base` with `other`'s constraints added. Where both give one value, `base`'s is kept, or
    /// `other`'s when `otherWins`; two `enum` lists keep the values in both.
    private mutating func merge(_ base: Schema, _ other: Schema, otherWins: Bool = false) -> Schema {
        func chosen<T>(_ mine: T?, _ theirs: T?) -> T? { otherWins ? theirs ?? mine : mine ?? theirs }
        var result = base
        if let types = other.types {
            result.types =
                result.types.map { mine in
                    mine.filter { types.contains($0) || ($0 == .number && types.contains(.integer)) }.map {
                        $0 == .number && types.contains(.integer) ? .integer : $0
                    }
                } ?? types
        }
        for property in other.properties {
            guard let at = result.properties.firstIndex(where: { $0.name == property.name }) else {
                result.properties.append(property)
                continue
            }
            let earlier = result.properties[at].schema
            if earlier != property.schema { result.properties[at].schema = allOf([earlier, property.schema]) }
        }
        for name in other.required where !result.required.contains(name) { result.required.append(name) }
        if let values = other.enumValues, let mine = result.enumValues {
            let (first, second) = otherWins ? (values, mine) : (mine, values)
            let both = first.filter { second.contains($0) }
            result.enumValues = both.isEmpty ? first : both
        } else {
            result.enumValues = result.enumValues ?? other.enumValues
        }
        result.constValue = chosen(result.constValue, other.constValue)
        result.format = chosen(result.format, other.format)
        result.contentEncoding = chosen(result.contentEncoding, other.contentEncoding)
        result.minimum = [result.minimum, other.minimum].compactMap { $0 }.max()
        result.maximum = [result.maximum, other.maximum].compactMap { $0 }.min()
        result.exclusiveMinimum = [result.exclusiveMinimum, other.exclusiveMinimum].compactMap { $0 }.max()
        result.exclusiveMaximum = [result.exclusiveMaximum, other.exclusiveMaximum].compactMap { $0 }.min()
        result.multipleOf = chosen(result.multipleOf, other.multipleOf)
        result.minLength = [result.minLength, other.minLength].compactMap { $0 }.max()
        result.maxLength = [result.maxLength, other.maxLength].compactMap { $0 }.min()
        result.minItems = [result.minItems, other.minItems].compactMap { $0 }.max()
        result.maxItems = [result.maxItems, other.maxItems].compactMap { $0 }.min()
        result.items = chosen(result.items, other.items)
        result.example = chosen(result.example, other.example)
        result.defaultValue = chosen(result.defaultValue, other.defaultValue)
        result.oneOf = result.oneOf.isEmpty ? other.oneOf : result.oneOf
        result.anyOf = result.anyOf.isEmpty ? other.anyOf : result.anyOf
        if case .any = result.additionalProperties { result.additionalProperties = other.additionalProperties }
        result.readOnly = result.readOnly || other.readOnly
        result.writeOnly = result.writeOnly || other.writeOnly
        return result
    }

    /// The index of a schema made of `parts` (see `made`), one per list of parts.
    private mutating func allOf(_ parts: [Int]) -> Int {
        if let index = madeFor[parts] { return index }
        var schema = Schema()
        schema.allOf = parts
        made.append(schema)
        let index = set.schemas.count + made.count - 1
        madeFor[parts] = index
        return index
    }

    private mutating func pick(_ count: Int) -> Int {
        guard count > 1, random != nil else { return 0 }
        return Int(random!.next() % UInt64(count))
    }

    private mutating func integer(_ schema: Schema) -> JSONValue {
        var low = Int.min
        var high = Int.max
        if let minimum = schema.minimum { low = max(low, Self.saturated(minimum.rounded(.up))) }
        if let bound = schema.exclusiveMinimum { low = max(low, Self.adding(Self.saturated(bound.rounded(.down)), 1)) }
        if let maximum = schema.maximum { high = min(high, Self.saturated(maximum.rounded(.down))) }
        if let bound = schema.exclusiveMaximum { high = min(high, Self.adding(Self.saturated(bound.rounded(.up)), -1)) }
        if schema.format == "int32" { low = max(low, -2_147_483_648); high = min(high, 2_147_483_647) }
        var chosen = min(max(0, low), high)
        // A random value near the fixed one: within 1,000 of it and inside the bounds.
        if random != nil, low <= high {
            chosen = Int.random(in: max(low, Self.adding(chosen, -1000))...min(high, Self.adding(chosen, 1000)), using: &random!)
        }
        if let step = schema.multipleOf.flatMap(Self.integerStep) {
            chosen = (chosen / step) * step
            if chosen < low { chosen = Self.adding(chosen, step) }
        }
        return .number(chosen)
    }

    /// The smallest integer that is a multiple of `step` (3 for 1.5), nil when there is none
    /// near enough; every integer multiple of `step` is a multiple of it.
    static func integerStep(_ step: Double) -> Int? {
        guard step.isFinite, step > 0 else { return nil }
        for factor in 1...1000 {
            let product = step * Double(factor)
            if product >= 1, product == product.rounded() { return saturated(product) }
        }
        return nil
    }

    /// `value` as an `Int`, the nearest end of `Int`'s range beyond it (`Int(_:)` traps there).
    static func saturated(_ value: Double) -> Int {
        if value.isNaN { return 0 }
        if value >= 0x1p63 { return Int.max }
        if value <= -0x1p63 { return Int.min }
        return Int(value)
    }

    static func adding(_ value: Int, _ other: Int) -> Int {
        let (sum, overflow) = value.addingReportingOverflow(other)
        return overflow ? (other > 0 ? Int.max : Int.min) : sum
    }

    /// A length or count from the document, 0 to `sizeLimit`.
    static func size(_ value: Int) -> Int { min(max(0, value), sizeLimit) }

    private mutating func number(_ schema: Schema) -> JSONValue {
        var low = -Double.greatestFiniteMagnitude
        var high = Double.greatestFiniteMagnitude
        if let minimum = schema.minimum, minimum.isFinite { low = max(low, minimum) }
        if let bound = schema.exclusiveMinimum, bound.isFinite { low = max(low, bound + 0.5 > bound ? bound + 0.5 : bound.nextUp) }
        if let maximum = schema.maximum, maximum.isFinite { high = min(high, maximum) }
        if let bound = schema.exclusiveMaximum, bound.isFinite { high = min(high, bound - 0.5 < bound ? bound - 0.5 : bound.nextDown) }
        var chosen = min(max(0, low), high)
        // A random value near the fixed one: within 1,000 of it and inside the bounds.
        if random != nil, low <= high {
            let lower = max(low, chosen - 1000)
            let upper = min(high, chosen + 1000)
            if lower < upper, (upper - lower).isFinite { chosen = Double.random(in: lower...upper, using: &random!) }
        }
        if let step = schema.multipleOf, step.isFinite, step > 0 {
            let stepped = (chosen / step).rounded(.up) * step
            if stepped.isFinite { chosen = stepped }
        }
        return .number(chosen)
    }

    private mutating func string(_ schema: Schema) -> String {
        if let encoding = schema.contentEncoding?.lowercased(), encoding == "base64" || encoding == "base64url" {
            return encoded(schema, url: encoding == "base64url")
        }
        if let pattern = schema.pattern, let sample = patterned(pattern, schema) { return sample }
        if let example = Formats.example(schema.format) { return example }
        var text = "string"
        if random != nil {
            let letters = Array("abcdefghijklmnopqrstuvwxyz")
            text = String((0..<(3 + pick(8))).map { _ in letters[pick(letters.count)] })
        }
        let minimum = min(Self.size(schema.minLength ?? 0), max(0, charactersLeft))
        if text.count < minimum {
            charactersLeft -= minimum - text.count
            text += String(repeating: "x", count: minimum - text.count)
        }
        if let maximum = schema.maxLength, maximum >= 0, text.count > maximum { text = String(text.prefix(maximum)) }
        return text
    }

    /// A string the pattern matches within the lengths: the shortest the pattern makes, then with
    /// each repetition taken more times until `minLength` is met; checked against the compiled
    /// pattern. nil when none fits (the caller's plain string then breaks the pattern).
    private mutating func patterned(_ pattern: Schema.Pattern, _ schema: Schema) -> String? {
        guard let node = pattern.sample else { return nil }
        let minimum = schema.minLength ?? 0
        let maximum = schema.maxLength ?? PatternSample.maximumLength
        func fits(_ text: String) -> Bool {
            let count = text.count
            // Within the body's budget, but a short string always fits.
            return count >= minimum && count <= maximum && count <= max(charactersLeft, 64)
                && (try? pattern.regex.firstMatch(in: text)) != nil
        }
        if var source = random {
            defer { random = source }
            for _ in 0..<4 {
                let text = PatternSample.text(node, extra: 0) { Int(source.next() % UInt64($0)) }
                if fits(text) { return text }
            }
        }
        for extra in [0, 1, 2, 4, 8, 16, 64, 256, 1024] {
            let text = PatternSample.text(node, extra: extra)
            if fits(text) {
                charactersLeft -= text.count
                return text
            }
            if text.count > maximum { break }
        }
        return nil
    }

    /// Text in base64 (RFC 4648, padded) or base64url (unpadded): of the bytes of "mockd", or of
    /// random bytes, as many as the lengths allow (4 characters for every 3 bytes).
    private mutating func encoded(_ schema: Schema, url: Bool) -> String {
        var count = random == nil ? 5 : 3 + pick(8)
        count = max(count, (min(Self.size(schema.minLength ?? 0), max(0, charactersLeft)) + 3) / 4 * 3)
        if let maximum = schema.maxLength, maximum >= 0 { count = min(count, maximum / 4 * 3) }
        charactersLeft -= (count + 2) / 3 * 4
        let seed = Array("mockd".utf8)
        var bytes: [UInt8] = []
        for offset in 0..<count { bytes.append(random == nil ? seed[offset % seed.count] : UInt8(truncatingIfNeeded: random!.next())) }
        let text = Data(bytes).base64EncodedString()
        guard url else { return text }
        return String(text.compactMap { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 == "=" ? nil : $0 })
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
