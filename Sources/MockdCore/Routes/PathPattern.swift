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

    /// Path segments; one trailing slash is ignored as for files. On every request that routes or
    /// operations could answer: cut at the `/` bytes (ASCII, so always between characters);
    /// `String.split` walked Characters at ~1,200 instructions a segment.
    /// The parts are made from UTF-8 slices, and the empty ones tested with `isEmpty`: slicing
    /// the String and comparing with `""` cost ~3,000 instructions on a three-segment path.
    /// The array is made once at its size, the leading `/` skipped rather than removed, and
    /// the `/`s found in the contiguous bytes, not by walking the UTF-8 view's indices: ~1,400
    /// instructions less on a four-segment path.
    static func split(_ path: String) -> [Substring] {
        if let parts = path.utf8.withContiguousStorageIfAvailable({ split(path, $0) }) { return parts }
        return Array(path.utf8).withUnsafeBufferPointer { split(path, $0) }
    }

    private static func split(_ path: String, _ bytes: UnsafeBufferPointer<UInt8>) -> [Substring] {
        guard !bytes.isEmpty else { return [] }
        let first = bytes[0] == UInt8(ascii: "/") ? 1 : 0
        var count = 1
        for offset in first..<bytes.count where bytes[offset] == UInt8(ascii: "/") { count += 1 }
        var parts: [Substring] = []
        parts.reserveCapacity(count)
        let utf8 = path.utf8
        var start = utf8.index(utf8.startIndex, offsetBy: first)
        var startOffset = first
        for offset in first..<bytes.count where bytes[offset] == UInt8(ascii: "/") {
            let end = utf8.index(start, offsetBy: offset - startOffset)
            parts.append(Substring(utf8[start..<end]))
            start = utf8.index(after: end)
            startOffset = offset + 1
        }
        parts.append(Substring(utf8[start..<utf8.endIndex]))
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
