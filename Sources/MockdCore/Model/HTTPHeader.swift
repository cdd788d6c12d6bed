/// One header field. Kept as an ordered list, not a dictionary: order and repeats matter on the wire.
///
/// `public`, where the rest of the core is `package`: release builds inline small public members
/// across modules but not package ones, and the adapter makes these on every request.
public struct HTTPHeader: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Field names compared as HTTP does (ASCII case-insensitively), without allocating. The
    /// lengths first: most names compared on the request path differ in length (`Host` against
    /// `Content-Length`), and that answer costs no retain and no closure. The framing and body
    /// checks call this many times a request.
    public static func namesEqual(_ a: String, _ b: String) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        let contiguous = x.withContiguousStorageIfAvailable { xs in
            y.withContiguousStorageIfAvailable { ys in bytesEqual(xs, ys) }
        }
        if let contiguous, let result = contiguous { return result }
        return bytesEqual(Array(x), Array(y))
    }

    private static func bytesEqual<C: RandomAccessCollection>(_ x: C, _ y: C) -> Bool where C.Element == UInt8, C.Index == Int {
        for (left, right) in zip(x, y) where left | 0x20 != right | 0x20 || (left != right && !isLetter(left)) {
            return false
        }
        return true
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
}

extension HTTPHeader {
    /// Headers about one transfer, not the resource (lower case): a recorded or imported answer
    /// does not repeat them, since mockd frames its own answer.
    package static let transferNames: Set<String> = [
        "date", "server", "content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive",
        "x-mockd-source", "age", "via", "alt-svc", "proxy-connection", "trailer", "upgrade", "te",
    ]
}

extension Array where Element == HTTPHeader {
    /// The first value for `name`, compared case-insensitively (HTTP field names are). By
    /// index: each name is read where it lies, not copied out with its value (two retains and
    /// two releases a header).
    public func first(named name: String) -> String? {
        for index in indices where HTTPHeader.namesEqual(self[index].name, name) {
            return self[index].value
        }
        return nil
    }
}
