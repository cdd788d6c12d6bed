/// The `path` of a route: literal segments, `:name` (one segment, captured), `*` (one
/// segment), a final `**` (the rest); or `pathPattern`, a regular expression.
package enum PathPattern: @unchecked Sendable {
    package enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case wildcard
        case rest
    }

    case segments([Segment], source: String)
    /// Regex values are immutable; Swift does not mark `Regex` Sendable yet.
    case regex(Regex<AnyRegexOutput>, source: String)

    package var source: String {
        switch self {
        case .segments(_, let source): source
        case .regex(_, let source): "~" + source
        }
    }

    package static func parse(_ path: String) -> PathPattern {
        let parts = Self.split(path)
        let segments: [Segment] = parts.map { part in
            if part == "**" { return .rest }
            if part == "*" { return .wildcard }
            if part.hasPrefix(":"), part.count > 1 { return .parameter(String(part.dropFirst())) }
            return .literal(String(part))
        }
        return .segments(segments, source: path)
    }

    /// Path segments; one trailing slash is ignored as for files. This runs on every request that
    /// routes or operations could answer, so it works on bytes: cut at the `/` bytes (ASCII, so
    /// always between characters), not with `String.split`, which walks Characters. The parts are
    /// made from UTF-8 slices and the empty ones tested with `isEmpty`, not sliced from the String
    /// and compared with `""`. Cut where `ranges` says: the `/`s are found in the contiguous
    /// bytes, not by walking the UTF-8 view's indices, and the array of parts is made once at its
    /// size, not grown.
    static func split(_ path: String) -> [Substring] {
        withBytes(path, Self.ranges).map { part(of: path, $0) }
    }

    /// The segment of `path` at these byte offsets (one of `ranges`).
    static func part(of path: String, _ range: Range<Int>) -> Substring {
        let utf8 = path.utf8
        return Substring(
            utf8[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)])
    }

    /// `body` with a text's UTF-8 bytes in one buffer (a native string's own; a copy otherwise).
    /// The path's here, and the Authorization header's for the bearer check.
    static func withBytes<R>(_ path: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = path.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(path.utf8).withUnsafeBufferPointer(body)
    }

    /// Where `split` cuts: each segment's byte offsets in the path.
    static func ranges(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        guard !bytes.isEmpty else { return [] }
        var start = bytes[0] == UInt8(ascii: "/") ? 1 : 0
        var count = 1
        for offset in start..<bytes.count where bytes[offset] == UInt8(ascii: "/") { count += 1 }
        var parts: [Range<Int>] = []
        parts.reserveCapacity(count)
        for offset in start..<bytes.count where bytes[offset] == UInt8(ascii: "/") {
            parts.append(start..<offset)
            start = offset + 1
        }
        parts.append(start..<bytes.count)
        if parts.count > 1, parts[parts.count - 1].isEmpty { parts.removeLast() }
        if parts.count == 1, parts[0].isEmpty { return [] }
        return parts
    }

    /// The captured parameters when `path` matches, nil otherwise.
    package func match(_ path: String) -> [String: String]? {
        match(path, parts: Self.split(path))
    }

    /// The same, with the path already split by `split(_:)`: a request is split once and
    /// tried against every candidate route.
    func match(_ path: String, parts: [Substring]) -> [String: String]? {
        switch self {
        case .segments(let segments, _):
            var parameters: [String: String] = [:]
            var index = 0
            for segment in segments {
                switch segment {
                case .rest:
                    return parameters
                case .literal(let literal):
                    guard index < parts.count, parts[index] == literal else { return nil }
                case .parameter(let name):
                    guard index < parts.count, !parts[index].isEmpty else { return nil }
                    parameters[name] = String(parts[index])
                case .wildcard:
                    guard index < parts.count, !parts[index].isEmpty else { return nil }
                }
                index += 1
            }
            return index == parts.count ? parameters : nil
        case .regex(let regex, _):
            guard let match = try? regex.wholeMatch(in: path) else { return nil }
            var parameters: [String: String] = [:]
            for (index, capture) in match.output.enumerated() where index > 0 {
                guard let substring = capture.substring else { continue }
                parameters[capture.name ?? String(index)] = String(substring)
            }
            return parameters
        }
    }

    /// The first segment when it is a literal: routes are indexed by it.
    var firstLiteral: String? {
        guard case .segments(let segments, _) = self, case .literal(let literal)? = segments.first else { return nil }
        return literal
    }

    /// Every path this pattern matches is matched by `self` (used to find routes that can never win).
    func covers(_ other: PathPattern) -> Bool {
        guard case .segments(let mine, _) = self else { return false }
        guard case .segments(let theirs, _) = other else { return mine == [.rest] }
        var index = 0
        for segment in mine {
            if segment == .rest { return true }
            guard index < theirs.count else { return false }
            switch (segment, theirs[index]) {
            case (.literal(let a), .literal(let b)): if a != b { return false }
            case (.literal, _): return false
            case (.parameter, .rest), (.wildcard, .rest): return false
            case (.parameter, _), (.wildcard, _): break
            case (.rest, _): return true
            }
            index += 1
        }
        return index == theirs.count
    }
}
