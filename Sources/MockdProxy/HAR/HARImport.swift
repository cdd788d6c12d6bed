#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
import MockdCore
import MockdSystem

/// A HAR file's entries as mocks, written the way `--record` writes a proxied answer (the
/// recorder's plan): a `mock_…json` file when that says it all, else a route in
/// `<routes>/recorded.json` with the body in `<root>/recorded/`.
package struct HARImport {
    package struct Options {
        /// Hosts (`api.example.com`, or with the port) whose entries are imported; empty: the host with the most entries.
        package var hosts: [String] = []
        /// Every answer to the same request, in order, as a `responses` sequence instead of the last one.
        package var sequence = false
        /// One mock per query string instead of one per method and path.
        package var query = false
        package init() {}
    }

    /// What happened to each entry, for the summary.
    package struct Report {
        /// One line per request written or kept (`GET /api/users → wrote MockData/…`).
        package var lines: [String] = []
        /// Entries that could not be read (`entry 3 (https://…): …`): these make the import fail.
        package var errors: [String] = []
        /// Entries not worth a mock (a HEAD, a 304, a request that got no answer), with why.
        package var skipped: [String] = []
        /// Entries of hosts not imported, per host.
        package var otherHosts: [(host: String, entries: Int)] = []
        /// The hosts imported.
        package var hosts: [String] = []
        package var written = 0
        package var kept = 0
        /// The files the import writes (or would write, with a dry run), in order.
        var files: [String] = []
    }

    /// The HAR file could not be read at all: nothing was imported.
    package struct Unreadable: Error, CustomStringConvertible {
        package var description: String
    }

    /// One request read from an entry, and the answer to it.
    struct Exchange {
        var request: MockRequest
        var host: String
        var response: BuiltResponse
        /// The `Content-Encoding` the body came in (HAR keeps the decoded text).
        var undoneCoding: String?
        /// A WebSocket upgrade's messages (a 101 of Chrome's export), written as a `.ws` file.
        var conversation: CapturedConversation? = nil
    }

    let recorder: Recorder
    let options: Options

    package init(recorder: Recorder, options: Options) {
        self.recorder = recorder
        self.options = options
    }

    /// Reads `bytes` as a HAR file and plans every entry; writes the plans unless `dryRun`.
    package func run(_ bytes: [UInt8], dryRun: Bool) throws(Unreadable) -> Report {
        var report = Report()
        let exchanges = try read(bytes, into: &report)
        let chosen = choose(exchanges, into: &report)

        var table: RouteTable
        switch RouteTable.read(recorder.routesFile) {
        case .success(let read): table = read
        case .failure(let problem): throw Unreadable(description: problem.message)
        }
        // Mock files this import plans count as existing for the entries after them (a query
        // that matters once a plain mock exists), as files already recorded do for `--record`.
        var planned: [String: String] = [:]
        var writes: [RecordPlan.Write] = []
        var tableChanged = false
        for group in chosen {
            let first = group[0]
            let plan: RecordPlan
            let label: String
            if let last = group.last, let conversation = last.conversation {
                // Every connection to a path is one group: the last one captured is written.
                plan = recorder.planConversation(
                    path: Recorder.normalized(last.request.path), text: conversation.text, table: table,
                    existingMockFile: { planned[$0] ?? recorder.findMockFile(named: $0) })
                label =
                    "GET \(last.request.path) (WebSocket, \(conversation.messages) message\(conversation.messages == 1 ? "" : "s")"
                    + (group.count > 1 ? "; the last of \(group.count) connections)" : ")")
            } else {
                plan = recorder.plan(
                    first.request, path: Recorder.normalized(first.request.path), group.map(\.response),
                    undoneCoding: group.lazy.compactMap(\.undoneCoding).first, table: table,
                    existingMockFile: { planned[$0] ?? recorder.findMockFile(named: $0) })
                label =
                    first.request.method + " " + first.request.path + (first.request.rawQuery.isEmpty ? "" : "?" + first.request.rawQuery)
                    + (group.count > 1 ? " (\(group.count) answers)" : "")
            }
            switch plan.outcome {
            case .keptExisting: report.kept += 1
            case .skipped(let why): report.skipped.append("\(label): \(why)")
            default: report.written += 1
            }
            if case .skipped = plan.outcome { continue }
            let bodies = plan.writes.filter { !$0.isMockFile }.map(\.path)
            report.lines.append(
                "\(label) → \(describe(plan.outcome, dryRun: dryRun))" + (bodies.isEmpty ? "" : ", body " + bodies.joined(separator: ", ")))
            for write in plan.writes {
                if write.isMockFile {
                    let name = PathText.lastComponent(write.path, .lastPathComponent).description
                    let relative = String(write.path.dropFirst(recorder.root.count + 1))
                    planned[name] = relative
                    // A `.ws` file answers the request its `.json` name stands for.
                    if name.hasSuffix(".ws") { planned[String(name.dropLast(".ws".count)) + ".json"] = relative }
                }
                writes.append(write)
            }
            if let updated = plan.table {
                table = updated
                tableChanged = true
            }
        }
        report.files = writes.map(\.path) + (tableChanged ? [recorder.routesFile] : [])
        guard !dryRun else { return report }
        for write in writes {
            do {
                try recorder.perform(write)
            } catch let error as AtomicFile.WriteError where error.alreadyExists && write.isMockFile {
                report.kept += 1
                report.written -= 1
                report.lines.append("\(write.path) appeared meanwhile: kept (--force replaces it)")
            } catch {
                report.errors.append("\(write.path): \(Recorder.describe(error))")
            }
        }
        if tableChanged {
            do {
                try recorder.writeTable(table)
            } catch {
                report.errors.append("\(recorder.routesFile): \(Recorder.describe(error))")
            }
        }
        return report
    }

    private func describe(_ outcome: RecordOutcome, dryRun: Bool) -> String {
        switch outcome {
        case .wroteMock(let file): (dryRun ? "would write " : "wrote ") + file
        case .wroteRoute(let index): (dryRun ? "would write" : "wrote") + " route #\(index) of \(recorder.routesFile)"
        case .keptExisting(let existing): "kept \(existing) (--force replaces it)"
        default: outcome.description
        }
    }

    // MARK: - Reading

    /// The entries as requests and answers; broken ones are named in `report.errors`.
    func read(_ bytes: [UInt8], into report: inout Report) throws(Unreadable) -> [Exchange] {
        // HAR files are UTF-8; readers must accept and ignore a byte order mark.
        let data = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Data(bytes.dropFirst(3)) : Data(bytes)
        let file: HARFile
        do {
            file = try JSONDecoder().decode(HARFile.self, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw Unreadable(description: "not JSON: \(Self.reason(error))")
            }
            throw Unreadable(description: "not a HAR file (expected {\"log\": {\"entries\": [...]}}): \(Self.reason(error))")
        } catch {
            throw Unreadable(description: "not JSON: \(error)")
        }
        var exchanges: [Exchange] = []
        for (index, lossy) in file.log.entries.enumerated() {
            let named = "entry \(index)" + (lossy.url.map { " (\($0))" } ?? "")
            switch lossy.entry {
            case .failure(let error):
                report.errors.append("\(named): \(Self.reason(error, below: lossy.depth))")
            case .success(let entry):
                switch exchange(entry) {
                case .success(let exchange): exchanges.append(exchange)
                case .failure(let problem) where problem.isError: report.errors.append("\(named): \(problem.message)")
                case .failure(let problem): report.skipped.append("\(named): \(problem.message)")
                }
            }
        }
        return exchanges
    }

    struct EntryProblem: Error {
        var message: String
        /// Broken input (true), or an entry with nothing to mock (false: a failed request).
        var isError = true
    }

    func exchange(_ entry: HARFile.Entry) -> Result<Exchange, EntryProblem> {
        guard let target = HARURL(entry.request.url) else {
            return .failure(EntryProblem(message: "the URL is not an absolute http(s) or ws(s) URL"))
        }
        guard let response = entry.response else { return .failure(EntryProblem(message: "no response")) }
        guard response.status > 0 else {
            return .failure(EntryProblem(message: "no answer (status 0: the request failed or was blocked)", isError: false))
        }
        guard (100...999).contains(response.status) else {
            return .failure(EntryProblem(message: "status \(response.status) is not an HTTP status"))
        }
        // A WebSocket's upgrade (another 101, h2c, is informational and skipped below).
        if response.status == 101,
            entry.webSocketMessages != nil || entry.resourceType == "websocket" || entry.request.url.lowercased().hasPrefix("ws")
        {
            return webSocketExchange(entry, target: target, response: response)
        }
        var body: [UInt8] = []
        if let text = response.content?.text, !text.isEmpty {
            if response.content?.encoding?.lowercased() == "base64" {
                // Some exporters wrap long base64 text: line breaks are not part of the data.
                guard let decoded = Data(base64Encoded: String(text.filter { !$0.isWhitespace })) else {
                    return .failure(EntryProblem(message: "content.text is not valid base64"))
                }
                body = Array(decoded)
            } else if let encoding = response.content?.encoding, !encoding.isEmpty {
                return .failure(EntryProblem(message: "content.encoding \"\(encoding)\" is not one HAR defines (base64)"))
            } else {
                body = Array(text.utf8)
            }
        }
        // HTTP/2 exports may list pseudo-headers (`:status`); they are not headers of the answer.
        var headers = (response.headers ?? []).filter { !$0.name.hasPrefix(":") && !$0.name.isEmpty }.map { HTTPHeader($0.name, $0.value) }
        if !headers.contains(where: { $0.name.lowercased() == "content-type" }), !body.isEmpty,
            let mimeType = response.content?.mimeType, !mimeType.isEmpty, mimeType != "x-unknown"
        {
            headers.append(HTTPHeader("Content-Type", mimeType))
        }
        // The text is already decoded: the coding it came in is said in the route, not sent.
        let undone = headers.first(named: "Content-Encoding").flatMap { $0.lowercased() == "identity" || $0.isEmpty ? nil : $0 }
        var request = MockRequest(method: entry.request.method.uppercased(), path: target.path, rawPath: target.rawPath)
        if options.query {
            request.rawQuery = target.rawQuery
            request.query = target.query
        }
        let built = BuiltResponse(status: response.status, headers: headers, body: body, origin: .capture)
        if let why = Recorder.notRecordable(request, built) { return .failure(EntryProblem(message: why, isError: false)) }
        return .success(Exchange(request: request, host: target.host, response: built, undoneCoding: undone))
    }

    /// What is wrong and where, the place named from `below` coding keys down (an entry's own members).
    static func reason(_ error: DecodingError, below depth: Int = 0) -> String {
        func place(_ path: [any CodingKey]) -> String {
            let names = path.dropFirst(depth).map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            return names.hasPrefix(".") ? String(names.dropFirst()) : names
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(place(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(place(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? context.debugDescription : "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    // MARK: - Choosing

    /// The entries of the imported hosts, grouped per request (method, path, and the query with
    /// `query`) in the order each request first appears: the last answer alone, or all of them
    /// in order with `sequence`.
    func choose(_ exchanges: [Exchange], into report: inout Report) -> [[Exchange]] {
        var perHost: [(host: String, entries: Int)] = []
        for exchange in exchanges {
            if let at = perHost.firstIndex(where: { $0.host == exchange.host }) {
                perHost[at].entries += 1
            } else {
                perHost.append((exchange.host, 1))
            }
        }
        let wanted: [String]
        if options.hosts.isEmpty {
            wanted = perHost.max { $0.entries < $1.entries }.map { [$0.host] } ?? []
        } else {
            wanted = options.hosts.map { $0.lowercased() }
        }
        func isWanted(_ host: String) -> Bool {
            wanted.contains(host) || wanted.contains(String(host.split(separator: ":").first ?? ""))
        }
        report.hosts = perHost.map(\.host).filter(isWanted)
        report.otherHosts = perHost.filter { !isWanted($0.host) }
        var order: [String] = []
        var groups: [String: [Exchange]] = [:]
        for exchange in exchanges where isWanted(exchange.host) {
            let request = exchange.request
            // A path's WebSocket connections are one group whatever the query (a .ws file answers any).
            let key =
                exchange.conversation != nil
                ? "WebSocket " + Recorder.normalized(request.path)
                : request.method + " " + Recorder.normalized(request.path) + (request.rawQuery.isEmpty ? "" : "?" + request.rawQuery)
            if groups[key] == nil { order.append(key) }
            if options.sequence || exchange.conversation != nil {
                groups[key, default: []].append(exchange)
            } else {
                groups[key] = [exchange]
            }
        }
        return order.map { groups[$0]! }
    }
}
