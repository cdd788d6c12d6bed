/// How a recording reads in the log: `recorded … outcome="wrote MockData/mock_api_users_get.json"`,
/// not the enum's debug form (`wroteMock("…")`).
extension RecordOutcome: CustomStringConvertible {
    package var description: String {
        switch self {
        case .wroteMock(let file): "wrote \(file)"
        case .wroteRoute(let index): "wrote route #\(index) of \(Recorder.routesFileName)"
        case .keptExisting(let existing): "kept \(existing) (--record-overwrite replaces it)"
        case .duplicate(let count): "not recorded: answer \(count) for this request in this run (the first is kept)"
        case .skipped(let why): "not recorded: \(why)"
        case .failed(let why): "failed: \(why)"
        }
    }
}
