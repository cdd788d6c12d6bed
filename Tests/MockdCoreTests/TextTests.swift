import MockdCore
import Testing

@Suite("Text helpers")
struct TextTests {
    @Test func hexDigits_AreTheTwentyTwoBytes() {
        let digits = Set("0123456789abcdefABCDEF".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(ASCII.isHexDigit(byte) == digits.contains(byte), "\(byte)")
            #expect((ASCII.hexValue(byte) != nil) == digits.contains(byte), "\(byte)")
        }
        for (offset, digit) in "0123456789abcdef".utf8.enumerated() {
            #expect(ASCII.hexValue(digit) == UInt8(offset))
        }
        #expect(ASCII.hexValue(UInt8(ascii: "A")) == 10)
        #expect(ASCII.hexValue(UInt8(ascii: "F")) == 15)
    }

    @Test func tokens_AreOneOrMoreTchars() {
        let marks = Set("!#$%&'*+-.^_`|~".utf8)
        for byte in UInt8(0)..<0x80 {
            let isLetterOrDigit = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (0x30...0x39).contains(byte)
            let text = String(decoding: [byte], as: UTF8.self)
            #expect(ASCII.isToken(text) == (isLetterOrDigit || marks.contains(byte)), "\(byte)")
            #expect(ASCII.isToken("A" + text + "z") == ASCII.isToken(text), "\(byte)")
        }
        #expect(!ASCII.isToken(""))
        #expect(ASCII.isToken("M-SEARCH") && ASCII.isToken("Content-Type") && ASCII.isToken("x_y.z~1"))
        #expect(!ASCII.isToken("GET ") && !ASCII.isToken("a:b") && !ASCII.isToken("é") && !ASCII.isToken("(x)"))
    }

    @Test func trimming_RemovesOnlyTheNamedBytes() {
        #expect(Self.trim(" \t a b \t ", .whitespace) == "a b")
        #expect(Self.trim(" \ta\t ", .spaces) == "\ta\t")
        #expect(Self.trim(" \ta\t ", .tabs) == " \ta\t ")
        #expect(Self.trim("\"x\"", .quotes) == "x")
        #expect(Self.trim("\"x\"", .spaces) == "\"x\"")
        #expect(Self.trim(" \" x \" ", [.spaces, .quotes]) == "x")
        #expect(Self.trim("", .whitespace) == "")
        #expect(Self.trim(" \t \t", .whitespace) == "")
        #expect(Self.trim("\r\n a \r\n", .whitespace) == "\r\n a \r\n")
        // A slice in the middle of its string: the bounds count from the slice's start.
        let text = "xx  a b  yy"
        #expect(text.dropFirst(2).dropLast(2).trimming(.spaces) == "a b")
    }

    /// The copies this replaced dropped whole Characters: where a trimmed byte and the scalar
    /// beside it make one Character, that Character stays.
    @Test func trimming_KeepsCharactersThatHoldAPaddingByte() {
        #expect(Self.trim(" \u{301}x ", .spaces) == " \u{301}x")  // a space and a combining mark
        #expect(Self.trim("\t\u{301}x", .whitespace) == "\u{301}x")  // a tab stands alone
        #expect(Self.trim(" x\u{600} ", .spaces) == "x\u{600} ")  // a prepended mark and a space
        #expect(Self.trim(" é ", .spaces) == "é")
        let quoteAndMark = "\"\u{301}"  // a literal ending so trips the #expect macro's expansion
        #expect(Self.trim(quoteAndMark + "\"", .quotes) == quoteAndMark)
    }

    /// Every short mix of padding, ASCII and the scalars that join a Character, against dropping
    /// Characters one at a time.
    @Test func trimming_AgreesWithDroppingCharacters() {
        let pieces = [" ", "\t", "\"", "a", "é", "\u{301}", "\u{600}", "\r\n", "\u{200D}"]
        let paddings: [ASCII.Padding] = [.spaces, .tabs, .quotes, .whitespace, [.spaces, .quotes]]
        var texts = [""]
        for _ in 0..<4 { texts += texts.flatMap { text in pieces.map { text + $0 } } }
        var differing: [String] = []
        for text in Set(texts) {
            for padding in paddings where Self.trim(text, padding) != Self.droppingCharacters(text[...], padding) {
                differing.append(text.debugDescription)
            }
        }
        #expect(differing.isEmpty)
    }

    static func trim(_ text: String, _ padding: ASCII.Padding) -> Substring {
        text[...].trimming(padding)
    }

    static func droppingCharacters(_ text: Substring, _ padding: ASCII.Padding) -> Substring {
        func isPadding(_ character: Character) -> Bool {
            (character == " " && padding.contains(.spaces)) || (character == "\t" && padding.contains(.tabs))
                || (character == "\"" && padding.contains(.quotes))
        }
        var result = text
        while let first = result.first, isPadding(first) { result = result.dropFirst() }
        while let last = result.last, isPadding(last) { result = result.dropLast() }
        return result
    }

    @Test func lastComponent_InBytes() {
        #expect(PathText.lastComponent("a/b.json", .bytes) == "b.json")
        #expect(PathText.lastComponent("b.json", .bytes) == "b.json")
        #expect(PathText.lastComponent("a//b", .bytes) == "b")
        #expect(PathText.lastComponent("a/", .bytes) == "")
        #expect(PathText.lastComponent("/", .bytes) == "")
        #expect(PathText.lastComponent("", .bytes) == "")
        #expect(PathText.lastComponent("a/\u{301}b", .bytes) == "\u{301}b")
    }

    @Test func lastComponent_AsLastPathComponent() {
        #expect(PathText.lastComponent("/a/b.json", .lastPathComponent) == "b.json")
        #expect(PathText.lastComponent("a/b//", .lastPathComponent) == "b")
        #expect(PathText.lastComponent("/", .lastPathComponent) == "/")
        #expect(PathText.lastComponent("///", .lastPathComponent) == "///")
        #expect(PathText.lastComponent("", .lastPathComponent) == "")
        #expect(PathText.lastComponent("a/\u{301}b", .lastPathComponent) == "a/\u{301}b")
    }

    @Test func withoutTrailingSlashes_KeepsARootSlash() {
        #expect(PathText.withoutTrailingSlashes("/a/b/") == "/a/b")
        #expect(PathText.withoutTrailingSlashes("a///") == "a")
        #expect(PathText.withoutTrailingSlashes("a") == "a")
        #expect(PathText.withoutTrailingSlashes("/") == "/")
        #expect(PathText.withoutTrailingSlashes("//") == "/")
        #expect(PathText.withoutTrailingSlashes("") == "")
    }
}
