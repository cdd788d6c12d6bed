/// What `Recorder.record` did with one proxied answer.
package enum RecordOutcome: Sendable, Equatable {
    /// A 200 JSON answer, saved as `mock_<path>_<method>.json` at this path.
    case wroteMock(String)
    /// Any other answer, saved as the route at this index of `recorded.json` (appended, or replaced with overwrite).
    case wroteRoute(Int)
    /// A mock for this method and path already exists (this file, or `<routes>/recorded.json#<index>`); nothing written.
    case keptExisting(String)
    /// The nth answer (2, 3…) for this method and path during this run; only the first is recorded.
    case duplicate(Int)
    /// Nothing worth recording (a HEAD, a 304, a partial 206, mockd's own error answer); says why.
    case skipped(String)
    /// A write failed, or `recorded.json` is not a route table mockd can add to; says what and where.
    case failed(String)
}
