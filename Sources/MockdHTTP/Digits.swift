#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decimal digits appended as bytes.
enum Digits {
    /// `80` µs → `0.080`
    static func putMilliseconds(_ micros: UInt64, into line: inout LineBuilder) {
        put(micros / 1000, into: &line)
        line.put(UInt8(ascii: "."))
        put(micros % 1000, into: &line, width: 3)
    }

    static func milliseconds(_ micros: UInt64) -> String {
        LineBuilder.build(maximumLength: 32, { putMilliseconds(micros, into: &$0) }, then: { String(decoding: $0, as: UTF8.self) })
    }

    static func put(_ value: UInt64, into line: inout LineBuilder, width: Int = 1) {
        // Most values are small: count the digits, then write them from the left.
        var count = 1
        var divisor: UInt64 = 1  // 10^(count - 1): the place of the first digit
        while count < 20 && value / 10 >= divisor { count += 1; divisor &*= 10 }
        var padding = width - count
        while padding > 0 { line.put(UInt8(ascii: "0")); padding -= 1 }
        var rest = value
        while divisor > 0 {
            line.put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
