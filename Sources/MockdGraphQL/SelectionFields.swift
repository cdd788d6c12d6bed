import GraphQL
import MockdCore

/// The fields a selection set selects on one object type, by response key (alias or name), in
/// order, each with every node selecting it (their sub-selections merge): fragments whose type
/// condition the type meets are flattened in. What both a sample answer (`SampleData`) and the
/// check of a written answer (`AnswerCheck`) walk.
struct SelectionFields {
    let schema: GraphQLSchema
    let fragments: [String: FragmentDefinition]
    /// The request's variables, for `@skip(if: $x)` and `@include(if: $x)`; nil when there is no
    /// request (a file checked at load): a field under such a condition is then `conditional`.
    let variables: JSONValue?

    struct Selected {
        let key: String
        var nodes: [Field]
        /// Under `@skip`/`@include` on a variable, with no request to read it from: may be absent.
        var conditional: Bool
    }

    func collect(_ selectionSet: SelectionSet, on type: GraphQLObjectType) -> [Selected] {
        var collected: [Selected] = []
        var visited = Set<String>()
        func walk(_ set: SelectionSet, conditional: Bool) {
            for selection in set.selections {
                switch selection {
                case let field as Field:
                    guard let included = included(field.directives) else { continue }
                    let key = field.alias?.value ?? field.name.value
                    if let index = collected.firstIndex(where: { $0.key == key }) {
                        collected[index].nodes.append(field)
                        collected[index].conditional = collected[index].conditional && (conditional || !included)
                    } else {
                        collected.append(Selected(key: key, nodes: [field], conditional: conditional || !included))
                    }
                case let inline as InlineFragment:
                    guard let included = included(inline.directives), applies(inline.typeCondition?.name.value, to: type) else { continue }
                    walk(inline.selectionSet, conditional: conditional || !included)
                case let spread as FragmentSpread:
                    let name = spread.name.value
                    guard let included = included(spread.directives), visited.insert(name).inserted, let fragment = fragments[name],
                        applies(fragment.typeCondition.name.value, to: type)
                    else { continue }
                    walk(fragment.selectionSet, conditional: conditional || !included)
                default:
                    continue
                }
            }
        }
        walk(selectionSet, conditional: false)
        return collected
    }

    /// `condition` (a fragment's type) holds for objects of `type`.
    func applies(_ condition: String?, to type: GraphQLObjectType) -> Bool {
        guard let condition, condition != type.name else { return true }
        guard let named = schema.getType(name: condition) as? any GraphQLAbstractType else { return false }
        return schema.getPossibleTypes(abstractType: named).contains { $0.name == type.name }
    }

    /// nil: left out (`@skip(if: true)`, `@include(if: false)`); false: depends on a variable
    /// there is no request to read; true: included.
    private func included(_ directives: [Directive]) -> Bool? {
        var certain = true
        for directive in directives {
            let name = directive.name.value
            guard name == "skip" || name == "include", let argument = directive.arguments.first(where: { $0.name.value == "if" }) else {
                continue
            }
            let condition: Bool?
            switch argument.value {
            case let boolean as BooleanValue: condition = boolean.value
            case let variable as Variable:
                if let variables {
                    let given: JSONValue? = variables[variable.name.value]
                    condition = given == JSONValue.bool(true)
                } else {
                    condition = nil
                }
            default: condition = nil
            }
            guard let condition else {
                certain = false
                continue
            }
            if (name == "skip" && condition) || (name == "include" && !condition) { return nil }
        }
        return certain
    }
}
