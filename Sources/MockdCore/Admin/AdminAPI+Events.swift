/// `GET /__mockd/events?after=N&state=S&wait=25`: a dashboard's long poll. The journal's new
/// entries (requests, and WebSocket messages apart), the open WebSocket connections, the runtime
/// scenario and the last reload, answered at once when there is news and otherwise when news
/// comes or `wait` runs out (the adapter parks the request meanwhile: no thread waits, and an
/// idle dashboard costs nothing). A connection opening or ending is news (the adapter counts it
/// as a change of state), so the list it shows is never older than a delivery.
extension AdminAPI {
    /// The most entries one answer carries; a dashboard that fell further behind gets the newest.
    static let eventsLimit = 100
    static let defaultEventsWait = 25
    static let maximumEventsWait = 60

    /// The events call: its arguments read once, for when to answer and for the answer. An
    /// unknown or malformed one is answered at once (400); without `after` (a dashboard's first
    /// call) or with `wait=0` there is nothing to wait for.
    static func eventsCall(_ request: MockRequest) -> AdminCall {
        if let refusal = AdminKeys.events.refusal(request) { return .answered(refusal) }
        switch EventsQuery.parse(request) {
        case .failure(let refusal):
            return .answered(AdminAPI().refuse(refusal))
        case .success(let query):
            let work: AdminWork =
                if let after = query.after, query.wait > 0 {
                    .waitForNews(after: after, state: query.state, wait: .seconds(query.wait))
                } else {
                    .now
                }
            return AdminCall(work: work) { context in .answer(AdminAPI().events(query, context)) }
        }
    }

    struct EventsQuery {
        var after: UInt64?
        var state: UInt64?
        var wait = AdminAPI.defaultEventsWait

        static func parse(_ request: MockRequest) -> Result<EventsQuery, ErrorAnswer> {
            var query = EventsQuery()
            for argument in request.query {
                let text = argument.value ?? ""
                switch argument.name {
                case "after":
                    guard let value = UInt64(text) else {
                        return .failure(ErrorAnswer(400, "after must be an entry id (a whole number), found \(JSONText.quoted(text))"))
                    }
                    query.after = value
                case "state":
                    guard let value = UInt64(text) else {
                        return .failure(ErrorAnswer(400, "state must be a whole number, found \(JSONText.quoted(text))"))
                    }
                    query.state = value
                case "wait":
                    guard let value = Int(text), value >= 0 else {
                        return .failure(ErrorAnswer(400, "wait must be seconds (a whole number), found \(JSONText.quoted(text))"))
                    }
                    query.wait = min(value, AdminAPI.maximumEventsWait)
                default:
                    continue  // refused before parsing (`AdminKeys.events`)
                }
            }
            return .success(query)
        }
    }

    /// Whether a long poll waiting with these arguments has something to show now.
    package static func hasNews(after: UInt64, state: UInt64?, journal: RequestJournal, runtime: RuntimeState) -> Bool {
        journal.lastID > after || (state != nil && state != runtime.changes)
    }

    func events(_ query: EventsQuery, _ context: Context) -> BuiltResponse {
        let after = query.after ?? 0
        let entries = context.journal.entries(after: after, limit: Self.eventsLimit)
        // Compact, not pretty: a machine reads it, up to four times a second per dashboard.
        return compactJSON(
            200,
            .object([
                ("next", .number(String(entries.last?.id ?? query.after ?? context.journal.lastID))),
                ("state", .number(String(context.state.changes))),
                ("requests", .array(entries.filter { $0.entry.message == nil }.map(\.json))),
                // As `GET /__mockd/ws/messages` shows them, with their ids.
                ("messages", .array(entries.filter { $0.entry.message != nil }.map(\.json))),
                // As `GET /__mockd/ws/connections` lists them.
                ("webSockets", .array(context.openWebSockets().map(\.json))),
                ("scenario", .string(context.state.runtimeScenario())),
                ("sessions", sessions(context)),
                ("lastReload", context.lastReload?.json ?? .null),
            ]))
    }
}
