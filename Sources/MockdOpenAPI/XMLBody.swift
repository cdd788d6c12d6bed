import MockdCore

/// XML for a response body documented as `application/xml`, `text/xml` or `…+xml`: the value
/// made for it (example or generated) written as elements named as the schemas' `xml` objects
/// say (`name`, `attribute`, `wrapped`). Written by hand: no dependency of the project writes
/// XML, and writing (unlike parsing) is elements, attributes and five escaped characters.
struct XMLBody {
    let set: SchemaSet

    static func isXML(bare type: String) -> Bool {
        type == "application/xml" || type == "text/xml" || type.hasSuffix("+xml")
    }

    /// The whole document: the root element is named by the schema's `xml.name`, else the
    /// component it refers to (`Pet`), else `root`; a root array is always wrapped.
    func document(_ value: JSONValue, schema: Int?) -> String {
        let name = schema.flatMap { naming($0, referenceName: true).name } ?? "root"
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        element(name, value, schema, wrapped: true, into: &text)
        return text + "\n"
    }

    struct Naming {
        var name: String?
        var attribute = false
        var wrapped = false
    }

    /// The `xml` object along a chain of references; the first referenced component's name
    /// when asked (an element's name comes from its property, not its type, except at the root).
    func naming(_ index: Int, referenceName: Bool) -> Naming {
        var naming = Naming()
        var component: String?
        var current = index
        for _ in 0..<32 {
            let schema = set.schemas[current]
            if naming.name == nil { naming.name = schema.xmlName }
            naming.attribute = naming.attribute || schema.xmlAttribute
            naming.wrapped = naming.wrapped || schema.xmlWrapped
            if component == nil { component = schema.referenceName }
            guard let next = schema.reference else { break }
            current = next
        }
        if naming.name == nil, referenceName { naming.name = component }
        return naming
    }

    /// The schema's properties, those of its `allOf` parts included, to a bounded depth: a
    /// part may name the schema it is part of.
    private func properties(_ index: Int?, depth: Int = 0) -> [(name: String, schema: Int)] {
        guard let index else { return [] }
        let schema = set.resolved(index)
        guard depth < 8 else { return schema.properties }
        return schema.properties + schema.allOf.flatMap { properties($0, depth: depth + 1) }
    }

    private func element(_ name: String, _ value: JSONValue, _ schema: Int?, wrapped: Bool, into text: inout String) {
        switch value {
        case .object(let members):
            let known = properties(schema)
            var attributes = ""
            var children = ""
            for member in members {
                let property = known.first { $0.name == member.key }?.schema
                let naming = property.map { self.naming($0, referenceName: false) } ?? Naming()
                let childName = naming.name ?? member.key
                if naming.attribute {
                    attributes += " \(childName)=\"\(Self.escaped(Self.scalarText(member.value)))\""
                } else {
                    element(childName, member.value, property, wrapped: naming.wrapped, into: &children)
                }
            }
            text += "<\(name)\(attributes)>\(children)</\(name)>"
        case .array(let items):
            let itemSchema = schema.flatMap { set.resolved($0).items }
            let itemName = itemSchema.flatMap { naming($0, referenceName: false).name } ?? name
            var inner = ""
            for item in items { element(itemName, item, itemSchema, wrapped: false, into: &inner) }
            text += wrapped ? "<\(name)>\(inner)</\(name)>" : inner
        case .null:
            text += "<\(name)/>"
        default:
            text += "<\(name)>\(Self.escaped(Self.scalarText(value)))</\(name)>"
        }
    }

    static func scalarText(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return value.serialized
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
