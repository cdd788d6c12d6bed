import MockdCore
import Testing

/// The admin token is compared whole, never stopping at the first wrong byte.
@Suite struct ConstantTimeTests {
    static let secret = Array("Bearer s3cret".utf8)

    @Test func equals_OnlyTheSameBytes() {
        #expect(ConstantTime.equals("Bearer s3cret", Self.secret))
        for sent in ["", "Bearer s3cre", "Bearer s3cret ", "Bearer s3creT", "bearer s3cret", "Bearer s3cret\u{0}", "xBearer s3cret"] {
            #expect(!ConstantTime.equals(sent, Self.secret), "\(sent.debugDescription)")
        }
    }

    @Test func equals_AnEmptySecretOnlyMatchesEmpty() {
        #expect(ConstantTime.equals("", []))
        #expect(!ConstantTime.equals("a", []))
    }

    @Test func equals_ASentValueShorterThanTheSecretPaddedWithZeros_IsStillRefused() {
        // Padding makes the loop's length the secret's; the length check keeps the padding from matching.
        let secret: [UInt8] = [65, 0]
        #expect(!ConstantTime.equals("A", secret))
    }
}
