import ArgumentParser

/// A number option's bounds, checked in its group's `validate()`, so a value out of range is a
/// usage error naming the option, whether it was typed or came from a `MOCKD_*` variable.
enum OptionRange {
    /// `--port 70000: expected 0-65535`; `--journal-size -1: expected 0 or more`.
    static func check(_ value: Int, _ option: String, _ range: ClosedRange<Int>) throws {
        guard !range.contains(value) else { return }
        let expected = range.upperBound == Int.max ? "\(range.lowerBound) or more" : "\(range.lowerBound)-\(range.upperBound)"
        throw ValidationError("--\(option) \(value): expected \(expected)")
    }
}
