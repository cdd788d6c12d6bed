import MockdCore

/// Checks a JSON value against a compiled schema and lists every violation with its place:
/// `body.name: expected string, found 12`. A required property may be left out of a request when
/// it is `readOnly` (the server's to send) and out of a response when it is `writeOnly`; depth is
/// bounded so a hostile body cannot recurse forever.
struct SchemaValidator {
    let set: SchemaSet
    /// Checks what a server sends (examples, mock bodies) rather than what a client sends.
    var forResponse = false
    static let depthLimit = 64

    func violations(_ value: JSONValue, _ index: Int, at place: String) -> [String] {
        var found: [String] = []
        check(value, index, place, depth: 0, &found)
        return found
    }

    func isValid(_ value: JSONValue, _ index: Int) -> Bool {
        var found: [String] = []
        check(value, index, "", depth: 0, &found)
        return found.isEmpty
    }

    private func check(_ value: JSONValue, _ index: Int, _ place: String, depth: Int, _ found: inout [String]) {
        guard depth < Self.depthLimit else { return }
        // Borrowed where it lies in the set, not copied: a schema has some twenty fields, and a
        // copy retained and released each of them on every validated value.
        if let resolved = set.resolvedIndex(index) {
            check(value, set.schemas[resolved], place, depth: depth, &found)
        } else {
            check(value, SchemaSet.anything, place, depth: depth, &found)
        }
    }

    private func check(_ value: JSONValue, _ schema: borrowing Schema, _ place: String, depth: Int, _ found: inout [String]) {
        if let constant = schema.constant {
            if !constant { found.append("\(place): no value is allowed here") }
            return
        }
        let kind = Self.kind(of: value)
        if let types = schema.types, !schema.allows(kind) {
            found.append("\(place): expected \(types.map(\.rawValue).joined(separator: " or ")), found \(Self.describe(value))")
            return
        }
        if let values = schema.enumValues, !values.contains(value) {
            found.append("\(place): expected one of \(values.map(\.serialized).joined(separator: ", ")), found \(Self.describe(value))")
        }
        if let constant = schema.constValue, constant != value {
            found.append("\(place): expected \(constant.serialized), found \(Self.describe(value))")
        }
        switch value {
        case .number: checkNumber(value, schema, place, &found)
        case .string(let text): checkString(text, schema, place, &found)
        case .array(let items): checkArray(items, schema, place, depth: depth, &found)
        case .object(let members): checkObject(members, schema, place, depth: depth, &found)
        default: break
        }
        for part in schema.allOf { check(value, part, place, depth: depth + 1, &found) }
        if !schema.anyOf.isEmpty, !schema.anyOf.contains(where: { passes(value, $0, depth) }) {
            found.append("\(place): matches none of the anyOf schemas")
        }
        if !schema.oneOf.isEmpty {
            let matches = schema.oneOf.filter { passes(value, $0, depth) }.count
            if matches != 1 { found.append("\(place): matches \(matches) of the oneOf schemas, expected exactly 1") }
        }
        if let not = schema.not, passes(value, not, depth) { found.append("\(place): matches a schema it must not match") }
    }

    private func passes(_ value: JSONValue, _ index: Int, _ depth: Int) -> Bool {
        var found: [String] = []
        check(value, index, "", depth: depth + 1, &found)
        return found.isEmpty
    }

    private func checkNumber(_ value: JSONValue, _ schema: borrowing Schema, _ place: String, _ found: inout [String]) {
        guard let number = value.doubleValue else { return }
        if let minimum = schema.minimum, number < minimum {
            found.append("\(place): expected at least \(Self.text(minimum)), found \(value.serialized)")
        }
        if let maximum = schema.maximum, number > maximum {
            found.append("\(place): expected at most \(Self.text(maximum)), found \(value.serialized)")
        }
        if let bound = schema.exclusiveMinimum, number <= bound {
            found.append("\(place): expected more than \(Self.text(bound)), found \(value.serialized)")
        }
        if let bound = schema.exclusiveMaximum, number >= bound {
            found.append("\(place): expected less than \(Self.text(bound)), found \(value.serialized)")
        }
        if let step = schema.multipleOf {
            let quotient = number / step
            if abs(quotient - quotient.rounded()) > 1e-9 {
                found.append("\(place): expected a multiple of \(Self.text(step)), found \(value.serialized)")
            }
        }
        switch schema.format {
        case "int32"? where number < -2_147_483_648 || number > 2_147_483_647:
            found.append("\(place): expected an int32, found \(value.serialized)")
        case "int64"? where !Self.fitsInt64(value.serialized, number):
            found.append("\(place): expected an int64, found \(value.serialized)")
        default: break
        }
    }

    private func checkString(_ text: String, _ schema: borrowing Schema, _ place: String, _ found: inout [String]) {
        let (minimumLength, maximumLength) = (schema.minLength, schema.maxLength)
        if minimumLength != nil || maximumLength != nil {
            let length = text.unicodeScalars.count
            if let minimum = minimumLength, length < minimum {
                found.append("\(place): expected at least \(minimum) characters, found \(length)")
            }
            if let maximum = maximumLength, length > maximum {
                found.append("\(place): expected at most \(maximum) characters, found \(length)")
            }
        }
        if let pattern = schema.pattern, (try? pattern.regex.firstMatch(in: text)) == nil {
            found.append("\(place): expected to match \(pattern.source), found \(JSONText.quoted(text))")
        }
        if let format = schema.format, !Formats.matches(text, format: format) {
            found.append("\(place): expected a \(format), found \(JSONText.quoted(text))")
        }
    }

    private func checkArray(_ items: [JSONValue], _ schema: borrowing Schema, _ place: String, depth: Int, _ found: inout [String]) {
        if let minimum = schema.minItems, items.count < minimum {
            found.append("\(place): expected at least \(minimum) items, found \(items.count)")
        }
        if let maximum = schema.maxItems, items.count > maximum {
            found.append("\(place): expected at most \(maximum) items, found \(items.count)")
        }
        if schema.uniqueItems {
            for (offset, item) in items.enumerated() where items[..<offset].contains(item) {
                found.append("\(place)[\(offset)]: expected unique items, found a repeat")
                break
            }
        }
        if let contains = schema.contains {
            let matching = items.filter { passes($0, contains, depth) }.count
            let minimum = schema.minContains ?? 1
            if matching < minimum { found.append("\(place): expected at least \(minimum) items matching contains, found \(matching)") }
            if let maximum = schema.maxContains, matching > maximum {
                found.append("\(place): expected at most \(maximum) items matching contains, found \(matching)")
            }
        }
        for (offset, item) in items.enumerated() {
            if offset < schema.prefixItems.count {
                check(item, schema.prefixItems[offset], "\(place)[\(offset)]", depth: depth + 1, &found)
            } else if let items = schema.items {
                check(item, items, "\(place)[\(offset)]", depth: depth + 1, &found)
            }
        }
    }

    private func checkObject(
        _ members: [(key: String, value: JSONValue)], _ schema: borrowing Schema, _ place: String, depth: Int, _ found: inout [String]
    ) {
        for name in schema.required where !members.contains(where: { $0.key == name }) {
            if let property = schema.properties.first(where: { $0.name == name }) {
                let resolved = set.resolved(property.schema)
                if forResponse ? resolved.writeOnly : resolved.readOnly { continue }
            }
            found.append("\(place).\(name): required, missing")
        }
        if let minimum = schema.minProperties, members.count < minimum {
            found.append("\(place): expected at least \(minimum) properties, found \(members.count)")
        }
        if let maximum = schema.maxProperties, members.count > maximum {
            found.append("\(place): expected at most \(maximum) properties, found \(members.count)")
        }
        for member in members {
            let memberPlace = "\(place).\(member.key)"
            if let property = schema.properties.first(where: { $0.name == member.key }) {
                check(member.value, property.schema, memberPlace, depth: depth + 1, &found)
                continue
            }
            switch schema.additionalProperties {
            case .any: break
            case .none: found.append("\(memberPlace): not an allowed property")
            case .schema(let index): check(member.value, index, memberPlace, depth: depth + 1, &found)
            }
        }
    }

    static func kind(of value: JSONValue) -> Schema.Kind {
        switch value {
        case .null: .null
        case .bool: .boolean
        case .number(let text):
            Double(text).map { $0.rounded() == $0 && !text.contains(".") || $0.rounded() == $0 && abs($0) < 1e15 } == true
                ? .integer : .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// Checked on the text: a Double cannot tell 2^63 - 1 from 2^63.
    static func fitsInt64(_ text: String, _ number: Double) -> Bool {
        if Int(text) != nil { return true }
        if text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
            return number > -9.223372036854776e18 && number < 9.223372036854776e18
        }
        return false
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        default: String(value.serialized.prefix(80))
        }
    }

    static func text(_ number: Double) -> String { JSONValue.number(number).serialized }
}
