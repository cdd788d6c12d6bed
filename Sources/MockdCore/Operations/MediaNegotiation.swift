/// Chooses among the media types a response is documented with by the request's `Accept`
/// (RFC 9110 section 12.5.1): each offered type takes the quality of the most specific range
/// that matches it (`text/plain` over `text/*` over `*/*`), the highest quality above zero wins,
/// a tie goes to the type documented first. Only responses documented with more than one
/// media type ever call this: every other request pays nothing for negotiation.
enum MediaNegotiation {
    struct Range {
        var type: Substring
        var subtype: Substring
        var quality: Double
    }

    /// The index in `offered` (bare types: lower case, no parameters) to serve; 0 when nothing
    /// is acceptable (a mock answers rather than refusing with 406).
    static func choice(accept: String, offered: [String]) -> Int {
        let ranges = parse(accept)
        guard !ranges.isEmpty else { return 0 }
        var best = 0
        var bestQuality = 0.0
        for (index, type) in offered.enumerated() {
            let quality = quality(of: type, in: ranges)
            if quality > bestQuality {
                best = index
                bestQuality = quality
            }
        }
        return best
    }

    static func parse(_ accept: String) -> [Range] {
        var ranges: [Range] = []
        for item in accept.lowercased().split(separator: ",") {
            let parameters = item.split(separator: ";")
            guard let range = parameters.first else { continue }
            let parts = range.trimming(.spaces).split(separator: "/", maxSplits: 1)
            guard parts.count == 2 else { continue }
            var quality = 1.0
            for parameter in parameters.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimming(.spaces) == "q" {
                    quality = Double(pair[1].trimming(.spaces)).map { min(max($0, 0), 1) } ?? 1
                }
            }
            ranges.append(
                Range(type: parts[0].trimming(.spaces), subtype: parts[1].trimming(.spaces), quality: quality))
        }
        return ranges
    }

    /// The quality of the most specific matching range; 0 when none matches. An offered
    /// wildcard (`*/*` documented as a response's key) matches any range, below a concrete type.
    static func quality(of offered: String, in ranges: [Range]) -> Double {
        let parts = offered.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return 0 }
        let (type, subtype) = (parts[0], parts[1])
        if type == "*" || subtype == "*" {
            let matching = ranges.filter { type == "*" || $0.type == "*" || $0.type == type }.map(\.quality)
            return (matching.max() ?? 0) * 0.001
        }
        var specificity = 0
        var quality = 0.0
        for range in ranges {
            let level: Int
            if range.type == type, range.subtype == subtype {
                level = 3
            } else if range.type == type, range.subtype == "*" {
                level = 2
            } else if range.type == "*", range.subtype == "*" {
                level = 1
            } else {
                continue
            }
            if level > specificity {
                specificity = level
                quality = range.quality
            }
        }
        return quality
    }
}
