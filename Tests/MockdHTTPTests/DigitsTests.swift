import Testing
@testable import MockdHTTP

/// The access log's number formatting, alone: every width and the largest value.
@Suite("Digits")
struct DigitsTests {
    private func text(_ value: UInt64, width: Int = 1) -> String {
        // After an "x", as in a line: digits are put where the line has got to. At most 20 digits, or `width`.
        "x"
            + LineBuilder.build(
                maximumLength: max(20, width), { Digits.put(value, into: &$0, width: width) },
                then: { String(decoding: $0, as: UTF8.self) })
    }

    @Test func digitsAppendAfterWhatIsThere() {
        #expect(text(0) == "x0")
        #expect(text(7) == "x7")
        #expect(text(10) == "x10")
        #expect(text(99) == "x99")
        #expect(text(100) == "x100")
        #expect(text(404) == "x404")
        #expect(text(1_000_000_007) == "x1000000007")
        #expect(text(9_999_999_999_999_999_999) == "x9999999999999999999")
        #expect(text(UInt64.max) == "x18446744073709551615")
    }

    @Test func widthPadsWithZerosAndNeverCuts() {
        #expect(text(0, width: 3) == "x000")
        #expect(text(80, width: 3) == "x080")
        #expect(text(5, width: 3) == "x005")
        #expect(text(999, width: 3) == "x999")
        #expect(text(1234, width: 3) == "x1234")
    }

    @Test func milliseconds() {
        #expect(Digits.milliseconds(80) == "0.080")
        #expect(Digits.milliseconds(248) == "0.248")
        #expect(Digits.milliseconds(1_000) == "1.000")
        #expect(Digits.milliseconds(1_234_567) == "1234.567")
    }
}
