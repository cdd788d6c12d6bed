/// Levenshtein distance between two byte strings, giving up (nil) once it must exceed `bound`.
/// Used for the 404 report's "file names a small edit away".
package enum EditDistance {
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
