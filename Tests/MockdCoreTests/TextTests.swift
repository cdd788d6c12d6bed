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
}
