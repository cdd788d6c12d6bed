/// One header field. Kept as an ordered list, not a dictionary: order and repeats matter on the wire.
public struct HTTPHeader: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == HTTPHeader {
    /// The first value for `name`, compared case-insensitively (HTTP field names are).
    public func first(named name: String) -> String? {
        for header in self where header.name.count == name.count && header.name.lowercased() == name.lowercased() {
            return header.value
        }
        return nil
    }
}
