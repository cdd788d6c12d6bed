/// A strict JSON (RFC 8259) reader for configuration files and mock bodies.
///
/// mockd has its own because it needs three things Foundation's parser does not give together:
/// validating 10,000 mock files at start without building objects (startup time and memory),
/// errors with line and column, and object keys kept in order for `json` bodies.
package struct JSONParser {
    /// JSON's white space (RFC 8259: space, tab, line feed, carriage return).
    static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Where and why a text is not JSON.
    package struct SyntaxError: Error, Equatable, CustomStringConvertible {
        package var line: Int
        package var column: Int
        package var message: String
        package var location: String { "line \(line), column \(column)" }
        package var description: String { "\(location): \(message)" }
    }

    /// Checks `bytes` without building anything; nil when it is one valid JSON value.
    package static func validate(_ bytes: UnsafeRawBufferPointer) -> SyntaxError? {
        var reader = Reader(bytes: bytes, build: false)
        do {
            _ = try reader.document()
            return nil
        } catch {
            return error
        }
    }

    package static func validate(_ bytes: [UInt8]) -> SyntaxError? {
        bytes.withUnsafeBytes { validate($0) }
    }

    package static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        let result: Result<JSONValue, SyntaxError> = bytes.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw, build: true)
            do throws(SyntaxError) { return .success(try reader.document()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    package static func parse(_ text: String) throws(SyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private static let maximumDepth = 512

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        let build: Bool
        var offset = 0
        var depth = 0

        init(bytes: UnsafeRawBufferPointer, build: Bool) {
            self.bytes = bytes
            self.build = build
        }

        mutating func document() throws(SyntaxError) -> JSONValue {
            // A UTF-8 byte order mark is tolerated: editors on some systems write one.
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { offset = 3 }
            skipWhitespace()
            if offset == bytes.count { throw failure(bytes.count == 0 ? "the file is empty" : "only white space, no JSON value") }
            let value = try value()
            skipWhitespace()
            if offset < bytes.count { throw failure("unexpected \(describe(bytes[offset])) after the JSON value") }
            return value
        }

        mutating func value() throws(SyntaxError) -> JSONValue {
            guard offset < bytes.count else { throw failure("the text ends where a value was expected") }
            switch bytes[offset] {
            case UInt8(ascii: "{"): return try object()
            case UInt8(ascii: "["): return try array()
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            case let byte:
                if byte == UInt8(ascii: "'") { throw failure("strings need double quotes, not single quotes") }
                throw failure("unexpected \(describe(byte)); expected a value (object, array, string, number, true, false or null)")
            }
        }

        mutating func object() throws(SyntaxError) -> JSONValue {
            try enter()
            offset += 1
            var members: [(key: String, value: JSONValue)] = []
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { offset += 1; depth -= 1; return .object(members) }
            while true {
                skipWhitespace()
                guard peek() == UInt8(ascii: "\"") else {
                    if peek() == UInt8(ascii: "}") { throw failure("a trailing comma before '}' is not allowed in JSON") }
                    throw failure(
                        offset < bytes.count
                            ? "expected a member name in double quotes, found \(describe(bytes[offset]))" : "the text ends inside an object"
                    )
                }
                let key = try string()
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else {
                    throw failure(
                        offset < bytes.count
                            ? "expected ':' after the member name, found \(describe(bytes[offset]))" : "the text ends inside an object")
                }
                offset += 1
                skipWhitespace()
                let member = try value()
                if build { members.append((key, member)) }
                skipWhitespace()
                switch peek() {
                case UInt8(ascii: ","): offset += 1
                case UInt8(ascii: "}"): offset += 1; depth -= 1; return .object(members)
                case nil: throw failure("the text ends inside an object; expected ',' or '}'")
                case let byte?: throw failure("expected ',' or '}' after an object member, found \(describe(byte))")
                }
            }
        }

        mutating func array() throws(SyntaxError) -> JSONValue {
            try enter()
            offset += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { offset += 1; depth -= 1; return .array(items) }
            while true {
                skipWhitespace()
                if peek() == UInt8(ascii: "]") { throw failure("a trailing comma before ']' is not allowed in JSON") }
                let item = try value()
                if build { items.append(item) }
                skipWhitespace()
                switch peek() {
                case UInt8(ascii: ","): offset += 1
                case UInt8(ascii: "]"): offset += 1; depth -= 1; return .array(items)
                case nil: throw failure("the text ends inside an array; expected ',' or ']'")
                case let byte?: throw failure("expected ',' or ']' after an array item, found \(describe(byte))")
                }
            }
        }

        mutating func string() throws(SyntaxError) -> String {
            let start = offset
            offset += 1
            var plainStart = offset
            var decoded: [UInt8] = []
            while offset < bytes.count {
                skipPlainStringBytes()
                guard offset < bytes.count else { break }
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") {
                    let result: String
                    if build {
                        decoded.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[plainStart..<offset]))
                        result = String(decoding: decoded, as: UTF8.self)
                    } else {
                        result = ""
                    }
                    offset += 1
                    return result
                }
                if byte < 0x20 {
                    throw failure(
                        byte == 0x0A ? "a line break inside a string (write \\n)" : "a control character inside a string (write it escaped)"
                    )
                }
                if byte == UInt8(ascii: "\\") {
                    if build { decoded.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[plainStart..<offset])) }
                    try escape(into: &decoded)
                    plainStart = offset
                    continue
                }
                if byte >= 0x80 { try utf8Sequence(); continue }
                offset += 1
            }
            offset = start
            throw failure("a string is not closed (missing '\"')")
        }

        /// Moves `offset` to the next byte a string's scan must look at. One table lookup per
        /// byte instead of four comparisons: string text is most of a mock file, and all of
        /// them are checked at every start (10,000 files: ~4 MB of it).
        mutating func skipPlainStringBytes() {
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            let end = bytes.count
            var index = offset
            Self.stopsStringScan.withUnsafeBufferPointer { stops in
                while index < end && stops[Int(base[index])] == 0 { index &+= 1 }
            }
            offset = index
        }

        /// 1 for `"`, `\\`, control characters and non-ASCII bytes.
        static let stopsStringScan: [UInt8] = (0...255).map { byte in
            byte < 0x20 || byte == 0x22 || byte == 0x5C || byte >= 0x80 ? 1 : 0
        }

        mutating func escape(into decoded: inout [UInt8]) throws(SyntaxError) {
            offset += 1
            guard offset < bytes.count else { throw failure("the text ends inside an escape sequence") }
            let byte = bytes[offset]
            offset += 1
            let simple: UInt8?
            switch byte {
            case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
            case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
            case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
            case UInt8(ascii: "b"): simple = 0x08
            case UInt8(ascii: "f"): simple = 0x0C
            case UInt8(ascii: "n"): simple = 0x0A
            case UInt8(ascii: "r"): simple = 0x0D
            case UInt8(ascii: "t"): simple = 0x09
            case UInt8(ascii: "u"): simple = nil
            default:
                offset -= 2
                throw failure("invalid escape '\\\(String(UnicodeScalar(byte)))' in a string")
            }
            if let simple {
                if build { decoded.append(simple) }
                return
            }
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                    throw failure("a \\u escape for a high surrogate must be followed by a low surrogate")
                }
                offset += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw failure("invalid low surrogate in a \\u escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw failure("a lone low surrogate in a \\u escape")
            }
            if build, let unicode = Unicode.Scalar(scalar) { decoded.append(contentsOf: Array(String(Character(unicode)).utf8)) }
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard offset + 4 <= bytes.count else { throw failure("a \\u escape needs four hex digits") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[offset]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw failure("a \\u escape needs four hex digits")
                }
                value = value << 4 | UInt32(digit)
                offset += 1
            }
            return value
        }

        /// Checks one multi-byte UTF-8 character (JSON text must be UTF-8).
        mutating func utf8Sequence() throws(SyntaxError) {
            let lead = bytes[offset]
            let length: Int
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: throw failure("the text is not valid UTF-8")
            }
            guard offset + length <= bytes.count else { throw failure("the text is not valid UTF-8") }
            for index in 1..<length where bytes[offset + index] & 0xC0 != 0x80 {
                throw failure("the text is not valid UTF-8")
            }
            // Overlong forms, UTF-16 surrogates and code points past U+10FFFF (RFC 3629 table).
            let second = bytes[offset + 1]
            if (lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F)
                || (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second > 0x8F)
            {
                throw failure("the text is not valid UTF-8")
            }
            offset += length
        }

        mutating func number() throws(SyntaxError) -> JSONValue {
            let start = offset
            if peek() == UInt8(ascii: "-") { offset += 1 }
            guard let first = peek(), isDigit(first) else { throw failure("a number needs digits after '-'") }
            if first == UInt8(ascii: "0") {
                offset += 1
                if let next = peek(), isDigit(next) { throw failure("numbers cannot have leading zeros") }
            } else {
                while let byte = peek(), isDigit(byte) { offset += 1 }
            }
            if peek() == UInt8(ascii: ".") {
                offset += 1
                guard let byte = peek(), isDigit(byte) else { throw failure("a number needs digits after '.'") }
                while let byte = peek(), isDigit(byte) { offset += 1 }
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                offset += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
                guard let byte = peek(), isDigit(byte) else { throw failure("a number needs digits in its exponent") }
                while let byte = peek(), isDigit(byte) { offset += 1 }
            }
            return build ? .number(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)) : .null
        }

        mutating func literal(_ word: StaticString) throws(SyntaxError) {
            let count = word.utf8CodeUnitCount
            let expected = UnsafeRawBufferPointer(start: word.utf8Start, count: count)
            guard offset + count <= bytes.count, bytes[offset..<offset + count].elementsEqual(expected) else {
                throw failure("unexpected \(describe(bytes[offset])); expected a value (did you mean \(word)?)")
            }
            offset += count
        }

        mutating func enter() throws(SyntaxError) {
            depth += 1
            if depth > maximumDepth { throw failure("nested more than \(maximumDepth) levels deep") }
        }

        mutating func skipWhitespace() {
            while offset < bytes.count {
                switch bytes[offset] {
                case 0x20, 0x0A, 0x0D, 0x09: offset += 1
                default: return
                }
            }
        }

        func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        func describe(_ byte: UInt8) -> String {
            if byte >= 0x21 && byte < 0x7F { return "'\(String(UnicodeScalar(byte)))'" }
            return byte == 0x20 ? "a space" : "byte 0x\(String(byte, radix: 16))"
        }

        func failure(_ message: String) -> SyntaxError {
            var line = 1, column = 1
            var index = 0
            let end = min(offset, bytes.count)
            while index < end {
                let byte = bytes[index]
                if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
                index += 1
            }
            return SyntaxError(line: line, column: column, message: message)
        }
    }
}
