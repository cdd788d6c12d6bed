/// A string that a schema's `pattern` matches, for answers generated from the schema. Written
/// here: no Swift library makes strings from a regular expression, and the constructs API
/// documents use are few — anchors, literals and escapes, classes and ranges (`[a-z0-9_-]`,
/// `[^…]`, `\d`, `\w`, `\s`, `.`), quantifiers (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, lazy or
/// not), groups (plain, `(?:…)`, named) and alternation. A pattern with a construct that states
/// a condition rather than text (a backreference, a lookaround, a Unicode property other than
/// letters and digits) is not generated (`parse` gives nil): its schema's example is served, or
/// a plain string with a warning at load. Every string made is checked against the compiled
/// pattern before it is used.
enum PatternSample {
    indirect enum Node: Sendable {
        case literal(Unicode.Scalar)
        /// Any of `ranges` (none of them, when `negated`).
        case set([ClosedRange<Unicode.Scalar>], negated: Bool)
        case sequence([Node])
        case alternation([Node])
        case repeated(Node, minimum: Int, maximum: Int?)
        /// `^`, `$`, `\b`…: no text of their own.
        case empty
    }

    /// The pattern's tree, or nil for a construct mockd does not generate (or a pattern that does not parse).
    static func parse(_ source: String) -> Node? {
        var parser = Parser(scalars: Array(source.unicodeScalars))
        guard let node = parser.alternation(depth: 0), parser.position == parser.scalars.count else { return nil }
        return node
    }

    /// Text for `node`: each repetition `extra` more times than its minimum (within its maximum),
    /// each choice the first, unless `pick` chooses (a random answer): `pick(n)` is in `0..<n`.
    static func text(_ node: Node, extra: Int, pick: ((Int) -> Int)? = nil) -> String {
        var out = String.UnicodeScalarView()
        write(node, extra: extra, pick: pick, into: &out)
        return String(out)
    }

    /// More than any answer keeps: past it a string is cut, and then fails its check.
    static let maximumLength = 10_000

    private static func write(_ node: Node, extra: Int, pick: ((Int) -> Int)?, into out: inout String.UnicodeScalarView) {
        guard out.count <= maximumLength else { return }
        switch node {
        case .literal(let scalar):
            out.append(scalar)
        case .set(let ranges, let negated):
            out.append(negated ? outside(ranges) : inside(ranges, pick: pick))
        case .sequence(let nodes):
            for node in nodes { write(node, extra: extra, pick: pick, into: &out) }
        case .alternation(let choices):
            write(choices[pick?(choices.count) ?? 0], extra: extra, pick: pick, into: &out)
        case .repeated(let inner, let minimum, let maximum):
            var count = minimum + (pick.map { $0(4) } ?? extra)
            if let maximum { count = min(count, maximum) }
            for _ in 0..<min(count, maximumLength + 1) {
                write(inner, extra: extra, pick: pick, into: &out)
                if out.count > maximumLength { return }
            }
        case .empty:
            break
        }
    }

    /// A scalar of the ranges: the first's first, or one chosen among the first 64 of each range.
    private static func inside(_ ranges: [ClosedRange<Unicode.Scalar>], pick: ((Int) -> Int)?) -> Unicode.Scalar {
        guard let pick else { return ranges[0].lowerBound }
        let range = ranges[pick(ranges.count)]
        let span = Int(range.upperBound.value - range.lowerBound.value) + 1
        return Unicode.Scalar(range.lowerBound.value + UInt32(pick(min(span, 64)))) ?? range.lowerBound
    }

    /// A printable scalar in none of the ranges (letters first, as a reader expects).
    private static func outside(_ ranges: [ClosedRange<Unicode.Scalar>]) -> Unicode.Scalar {
        let candidates = Array("aA0 ".unicodeScalars) + (0x21...0x7E).compactMap(Unicode.Scalar.init) + [Unicode.Scalar(0xE9)!]
        return candidates.first { scalar in !ranges.contains { $0.contains(scalar) } } ?? "~"
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var position = 0

        /// Nesting beyond this is not generated: a pattern is text from a document.
        static let depthLimit = 32

        mutating func alternation(depth: Int) -> Node? {
            guard depth < Self.depthLimit else { return nil }
            var choices: [Node] = []
            while true {
                guard let choice = sequence(depth: depth) else { return nil }
                choices.append(choice)
                guard peek == "|" else { break }
                position += 1
            }
            return choices.count == 1 ? choices[0] : .alternation(choices)
        }

        var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        mutating func sequence(depth: Int) -> Node? {
            var nodes: [Node] = []
            while let next = peek, next != "|", next != ")" {
                guard let atom = atom(depth: depth), let quantified = quantified(atom) else { return nil }
                nodes.append(quantified)
            }
            return nodes.count == 1 ? nodes[0] : .sequence(nodes)
        }

        mutating func atom(depth: Int) -> Node? {
            guard let next = peek else { return nil }
            position += 1
            switch next {
            case "^", "$": return .empty
            case ".": return .set(["\n"..."\n", "\r"..."\r"], negated: true)
            case "[": return set()
            case "\\": return escape(inSet: false).map { $0.node }
            case "(":
                if peek == "?" {
                    position += 1
                    switch peek {
                    case ":": position += 1
                    case "<" where position + 1 < scalars.count && scalars[position + 1] != "=" && scalars[position + 1] != "!":
                        guard skipName(closing: ">") else { return nil }
                    case "P":
                        position += 1
                        guard peek == "<", skipName(closing: ">") else { return nil }
                    default: return nil  // lookarounds, flags, comments
                    }
                }
                guard let inner = alternation(depth: depth + 1), peek == ")" else { return nil }
                position += 1
                return inner
            case "*", "+", "?", "{", ")", "]":
                // A quantifier with nothing before it; a lone `]` or `{` is text in most dialects,
                // but what is meant is not clear: not generated.
                return next == "]" || next == "{" ? .literal(next) : nil
            default: return .literal(next)
            }
        }

        /// Past `<name>` of a named group.
        mutating func skipName(closing: Unicode.Scalar) -> Bool {
            guard peek == "<" else { return false }
            while let next = peek, next != closing { position += 1 }
            guard peek == closing else { return false }
            position += 1
            return true
        }

        mutating func quantified(_ atom: Node) -> Node? {
            var node = atom
            while let next = peek {
                let bounds: (Int, Int?)
                switch next {
                case "*": bounds = (0, nil)
                case "+": bounds = (1, nil)
                case "?": bounds = (0, 1)
                case "{":
                    guard let counted = counts() else { return node }  // `{` not a quantifier: text, next turn
                    bounds = counted
                    position -= 1
                default: return node
                }
                position += 1
                if peek == "?" || peek == "+" { position += 1 }  // lazy or possessive: the same strings
                if case .repeated = node { return nil }  // `a**`: not meant
                node = .repeated(node, minimum: bounds.0, maximum: bounds.1)
            }
            return node
        }

        /// `{n}`, `{n,}`, `{n,m}` at the position, leaving it on the last `}`; nil (and the position
        /// unchanged) for anything else.
        mutating func counts() -> (Int, Int?)? {
            let start = position
            position += 1
            func number() -> Int? {
                var digits = ""
                while let next = peek, ("0"..."9").contains(next) {
                    digits.unicodeScalars.append(next)
                    position += 1
                }
                return digits.isEmpty ? nil : Int(digits.prefix(6))
            }
            guard let low = number() else {
                position = start
                return nil
            }
            var high: Int? = low
            if peek == "," {
                position += 1
                high = number()
            }
            guard peek == "}", high.map({ $0 >= low }) ?? true else {
                position = start
                return nil
            }
            position += 1
            return (low, high)
        }

        /// `[…]`, after the `[`.
        mutating func set() -> Node? {
            var negated = false
            if peek == "^" {
                negated = true
                position += 1
            }
            var ranges: [ClosedRange<Unicode.Scalar>] = []
            var first = true
            while let next = peek, next != "]" || first {
                first = false
                position += 1
                var low: Unicode.Scalar
                if next == "\\" {
                    guard let escaped = escape(inSet: true) else { return nil }
                    guard let scalar = escaped.scalar else {
                        // A class inside a set (`[\d_]`): its ranges; a negated one is not generated.
                        guard case .set(let inner, false) = escaped.node else { return nil }
                        ranges += inner
                        continue
                    }
                    low = scalar
                } else if next == "[" {
                    return nil  // POSIX classes and nested sets
                } else {
                    low = next
                }
                if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                    position += 1
                    guard var high = peek else { return nil }
                    position += 1
                    if high == "\\" {
                        guard let escaped = escape(inSet: true), let scalar = escaped.scalar else { return nil }
                        high = scalar
                    }
                    guard low <= high else { return nil }
                    ranges.append(low...high)
                } else {
                    ranges.append(low...low)
                }
            }
            guard peek == "]", !ranges.isEmpty else { return nil }
            position += 1
            return .set(ranges, negated: negated)
        }

        static let digits: [ClosedRange<Unicode.Scalar>] = ["0"..."9"]
        static let word: [ClosedRange<Unicode.Scalar>] = ["a"..."z", "A"..."Z", "0"..."9", "_"..."_"]
        static let space: [ClosedRange<Unicode.Scalar>] = [" "..." ", "\t"..."\t", "\n"..."\n", "\r"..."\r"]

        /// After a `\`: the node, and the scalar when it stands for one (inside a set, a range end).
        mutating func escape(inSet: Bool) -> (node: Node, scalar: Unicode.Scalar?)? {
            guard let next = peek else { return nil }
            position += 1
            func one(_ scalar: Unicode.Scalar) -> (Node, Unicode.Scalar?) { (.literal(scalar), scalar) }
            switch next {
            case "d": return (.set(Self.digits, negated: false), nil)
            case "D": return (.set(Self.digits, negated: true), nil)
            case "w": return (.set(Self.word, negated: false), nil)
            case "W": return (.set(Self.word, negated: true), nil)
            case "s": return (.set(Self.space, negated: false), nil)
            case "S": return (.set(Self.space, negated: true), nil)
            case "b", "B", "A", "z", "Z", "G": return inSet ? nil : (.empty, nil)
            case "n": return one("\n")
            case "t": return one("\t")
            case "r": return one("\r")
            case "f": return one("\u{0C}")
            case "v": return one("\u{0B}")
            case "0": return one("\u{0}")
            case "x": return hex(count: 2).map(one)
            case "u":
                if peek == "{" {
                    position += 1
                    var digits = ""
                    while let scalar = peek, scalar != "}", digits.count < 8 {
                        digits.unicodeScalars.append(scalar)
                        position += 1
                    }
                    guard peek == "}", let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else { return nil }
                    position += 1
                    return one(scalar)
                }
                return hex(count: 4).map(one)
            case "p":
                // Letters and digits by Unicode property: the ASCII ones; other properties are not generated.
                guard peek == "{" else { return nil }
                let start = position
                while let scalar = peek, scalar != "}" { position += 1 }
                guard peek == "}" else { return nil }
                let name = String(String.UnicodeScalarView(scalars[(start + 1)..<position]))
                position += 1
                switch name {
                case "L", "Letter", "L&", "Alpha", "Alphabetic": return (.set(["a"..."z", "A"..."Z"], negated: false), nil)
                case "Lu", "Uppercase_Letter": return (.set(["A"..."Z"], negated: false), nil)
                case "Ll", "Lowercase_Letter": return (.set(["a"..."z"], negated: false), nil)
                case "N", "Nd", "Number", "Decimal_Number": return (.set(Self.digits, negated: false), nil)
                default: return nil
                }
            case "1"..."9", "k":
                return nil  // backreferences
            default:
                // Any other escaped character stands for itself (`\.`, `\-`, `\/`, `\\`).
                return ("a"..."z").contains(next) || ("A"..."Z").contains(next) ? nil : one(next)
            }
        }

        mutating func hex(count: Int) -> Unicode.Scalar? {
            guard position + count <= scalars.count else { return nil }
            let digits = String(String.UnicodeScalarView(scalars[position..<(position + count)]))
            guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else { return nil }
            position += count
            return scalar
        }
    }
}
