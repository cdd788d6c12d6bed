/// Comparing a secret with what a request sent, in a time that does not depend on where they
/// differ: a comparison that stops at the first wrong byte lets a client that times many
/// attempts find the token a byte at a time.
package enum ConstantTime {
    /// True when `sent` is exactly `secret`. Every byte of `secret` is looked at whatever `sent`
    /// holds; the time depends only on the secret's length (which is not secret enough to hide).
    package static func equals(_ sent: some StringProtocol, _ secret: [UInt8]) -> Bool {
        var sentBytes = Array(sent.utf8)
        // Never shorter than the secret: the loop below reads the same number of bytes either way.
        let lengthsDiffer = sentBytes.count != secret.count
        if sentBytes.count < secret.count { sentBytes += [UInt8](repeating: 0, count: secret.count - sentBytes.count) }
        var difference: UInt8 = lengthsDiffer ? 1 : 0
        for index in secret.indices { difference |= sentBytes[index] ^ secret[index] }
        return difference == 0
    }
}
