/// Levenshtein distance between two byte strings, giving up (nil) once it must exceed `bound`.
/// Used for the 404 report's "file names a small edit away", and for the key a misspelt one
/// was meant to be (route files, admin calls).
package enum EditDistance {
    /// The candidate `word` was most likely meant to be: one that differs only in case, else the
    /// nearest within two edits (the first of equals); nil when none is that near.
    static func nearest(to word: String, in candidates: [String]) -> String? {
        candidates.first { $0.lowercased() == word.lowercased() }
            ?? candidates.compactMap { candidate in bounded(Array(candidate.utf8), word.utf8, bound: 2).map { (candidate, $0) } }
            .min { $0.1 < $1.1 }?.0
    }

    package static func bounded(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>, bound: Int) -> Int? {
        let a = Array(a), b = Array(b)
        if abs(a.count - b.count) > bound { return nil }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > bound { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= bound ? previous[b.count] : nil
    }
}
