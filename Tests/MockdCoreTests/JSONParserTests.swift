import MockdCore
import Testing

/// mockd's own JSON parser, alone: it checks every mock body at load (where its errors name a
/// line and column) and reads route tables.
@Suite("JSON parser")
struct JSONParserTests {
    static func string(_ json: String) throws -> String? {
        guard case .string(let text) = try JSONParser.parse(json) else { return nil }
        return text
    }

    static func error(_ bytes: [UInt8]) -> JSONParser.SyntaxError? {
        JSONParser.validate(bytes)
    }

    @Test func values() throws {
        #expect(try JSONParser.parse("null") == .null)
        #expect(try JSONParser.parse(" true ") == .bool(true))
        #expect(try JSONParser.parse("-12.5e3") == .number("-12.5e3"))
        #expect(
            try JSONParser.parse(#"[1, "a", {"k": false}]"#)
                == .array([.number("1"), .string("a"), .object([(key: "k", value: .bool(false))])]))
        #expect(try JSONParser.parse("\u{FEFF}{}") == .object([]), "a byte order mark is tolerated")
    }

    @Test func surrogatePairs() throws {
        #expect(try Self.string(#""\uD83D\uDE00""#) == "😀")
        #expect(try Self.string(#""\u00e9\u0041""#) == "éA")
        #expect(Self.error(Array(#""\uD83D""#.utf8)) != nil, "a lone high surrogate")
        #expect(Self.error(Array(#""\uD83Dx""#.utf8)) != nil, "a high surrogate followed by text")
        #expect(Self.error(Array(#""\uD83D\u0041""#.utf8)) != nil, "a high surrogate followed by a non-surrogate")
        #expect(Self.error(Array(#""\uDE00""#.utf8)) != nil, "a lone low surrogate")
        #expect(Self.error(Array(#""\u12""#.utf8)) != nil, "a short \\u escape")
    }

    @Test(
        "invalid UTF-8 is an error",
        arguments: [
            [0x22, 0xFF, 0x22],  // never valid
            [0x22, 0xC3, 0x22],  // truncated two-byte sequence
            [0x22, 0xC0, 0xAF, 0x22],  // overlong '/'
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // UTF-16 surrogate encoded in UTF-8
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // past U+10FFFF
            [0x22, 0x80, 0x22],  // a lone continuation byte
        ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        let error = Self.error(bytes)
        #expect(error?.message.contains("UTF-8") == true, "\(String(describing: error))")
    }

    @Test func validUTF8_IsKept() throws {
        #expect(try JSONParser.parse([0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22]) == .string("😀"))
        #expect(try JSONParser.parse([0x22, 0xE2, 0x82, 0xAC, 0x22]) == .string("€"))
    }

    @Test func depth() throws {
        let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(Self.error(Array(deep.utf8)) == nil, "512 levels are fine")
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(Self.error(Array(tooDeep.utf8))?.message.contains("512") == true)
        // Far deeper than the stack would allow if the limit were missing: an error, not a crash.
        let hostile = String(repeating: "{\"a\":", count: 100_000)
        #expect(Self.error(Array(hostile.utf8)) != nil)
    }

    @Test func errorsNameLineAndColumn() {
        let error = Self.error(Array("{\n  \"a\": 1\n  \"b\": 2\n}".utf8))
        #expect(error?.line == 3 && error?.column == 3, "\(String(describing: error))")
    }

    @Test("malformed documents are errors", arguments: ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "tru", "\"\\x\"", "[1] 2", "\"a\u{1}\""])
    func malformed(text: String) {
        #expect(Self.error(Array(text.utf8)) != nil, "\(text.debugDescription) was accepted")
    }
}
