import Foundation
import MCP
import MockdKit

/// What each tool does: one or two admin API calls, in the scope the arguments give (`ToolScope`).
struct ToolCalls: Sendable {
    let admin: AdminCalls
    /// The session this MCP server opened at its start, where tools act by default.
    let own: MockdSession
    /// Runs `mockd import` and `mockd check`: this program, which is mockd.
    let executable: String?

    func call(_ name: String, _ raw: [String: Value]?) async -> CallTool.Result {
        do throws(ToolRefusal) {
            guard let known = ToolCatalog.argumentNames(of: name) else { throw ToolRefusal("no tool named \"\(name)\"") }
            let arguments = try ToolArguments(raw, known: known)
            return ToolResult.success(try await run(name, arguments))
        } catch {
            return ToolResult.failure(error)
        }
    }

    private func run(_ name: String, _ arguments: ToolArguments) async throws(ToolRefusal) -> Value {
        switch name {
        case "status": return try await status()
        case "explain_request": return try await explain(arguments)
        case "create_mock": return try await createMock(arguments)
        case "create_route_table":
            let routes = arguments.values["routes"] ?? .null
            guard case .array = routes else { throw ToolRefusal("\"routes\" is required: an array of route objects") }
            let table: Value = ["table": .string(try arguments.requiredString("table")), "routes": routes]
            return try await admin.call("POST", "/__mockd/route-tables", json: table)
        case "add_stub": return try await addStub(arguments)
        case "remove_stub":
            let id = try arguments.requiredString("id")
            _ = try await admin.call("DELETE", "/__mockd/stubs/" + Self.segment(id))
            return ["removed": .string(id)]
        case "list_stubs": return try await admin.get("/__mockd/stubs")
        case "set_scenario": return try await setScenario(arguments)
        case "open_session":
            var body: [String: Value] = [:]
            if let id = try arguments.string("id") { body["id"] = .string(id) }
            if let scenario = try arguments.string("scenario") { body["scenario"] = .string(scenario) }
            return try await admin.call("POST", "/__mockd/sessions", json: .object(body))
        case "list_sessions": return try await admin.get("/__mockd/sessions")
        case "close_session":
            let id = try arguments.requiredString("id")
            guard id != own.id else {
                throw ToolRefusal("\(id) is this MCP server's own session: it is closed when the agent disconnects")
            }
            _ = try await admin.call("DELETE", "/__mockd/sessions/" + Self.segment(id))
            return ["closed": .string(id)]
        case "list_requests": return try await requests(arguments, waiting: false)
        case "wait_for_requests": return try await requests(arguments, waiting: true)
        case "reset": return try await reset(arguments)
        case "check": return try await check()
        case "import": return try await importFile(arguments)
        default: throw ToolRefusal("no tool named \"\(name)\"")
        }
    }

    // MARK: Reading

    private func status() async throws(ToolRefusal) -> Value {
        let health = try await admin.get("/__mockd/health")
        let sessions = try await admin.get("/__mockd/sessions")
        let scenario = try await admin.get("/__mockd/scenario", query: [URLQueryItem(name: "session", value: own.id)])
        let routes = try await admin.get("/__mockd/routes").objectValue ?? [:]
        var served: [String: Value] = [
            "routes": .int(routes["routes"]?.arrayValue?.count ?? 0),
            "files": .int(routes["files"]?.arrayValue?.count ?? 0),
            "scenarios": routes["scenarios"] ?? .array([]),
        ]
        // Operations are listed one by one (a large document has thousands): their count, and the
        // documents they come from, which each source names first ("openapi petstore.yaml GET /pets").
        let operations = routes["operations"]?.arrayValue ?? []
        served["operations"] = .int(operations.count)
        var documents: [String] = []
        for operation in operations {
            guard let source = operation.objectValue?["source"]?.stringValue else { continue }
            let document = source.split(separator: " ").prefix(2).joined(separator: " ")
            if !documents.contains(document) { documents.append(document) }
        }
        served["documents"] = .array(documents.map { .string($0) })
        return [
            "mcpSession": [
                "id": .string(own.id), "baseURL": .string(own.baseURL.absoluteString),
                "scenario": scenario.objectValue?["scenario"] ?? .null,
            ],
            "server": health,
            "served": .object(served),
            "knownScenarios": scenario.objectValue?["known"] ?? .array([]),
            "sessions": sessions.objectValue?["sessions"] ?? .array([]),
        ]
    }

    private func explain(_ arguments: ToolArguments) async throws(ToolRefusal) -> Value {
        let method = try arguments.requiredString("method").uppercased()
        let path = try arguments.requiredString("path")
        guard path.hasPrefix("/") else { throw ToolRefusal("\"path\" must start with '/', found \(path)") }
        var headers: [String: String] = [:]
        for (name, value) in try arguments.object("headers") ?? [:] {
            guard let text = value.stringValue else { throw ToolRefusal("header \(name) must be a string") }
            headers[name] = text
        }
        if let scenario = try arguments.string("scenario") { headers["X-Mock-Scenario"] = scenario }
        let session = try arguments.string("session") ?? own.id
        let baseURL = try await baseURL(of: session)
        let answer = try await admin.send(to: baseURL, method: method, path: path, headers: headers, body: try arguments.string("body"))
        var result: [String: Value] = ["request": .string("\(method) \(path)"), "session": .string(session), "status": .int(answer.status)]
        if let source = answer.headers["x-mockd-source"] { result["source"] = .string(source) }
        if let warning = answer.headers["x-mockd-warning"] { result["warning"] = .string(warning) }
        if answer.status == 404, let report = try? JSONDecoder().decode(Value.self, from: answer.body) {
            result["notFound"] = report
        } else if !answer.body.isEmpty {
            let text = String(decoding: answer.body.prefix(600), as: UTF8.self)
            result["body"] = .string(answer.body.count > 600 ? text + "…" : text)
        }
        return .object(result)
    }

    private func baseURL(of session: String) async throws(ToolRefusal) -> URL {
        if session == own.id { return own.baseURL }
        let sessions = try await admin.get("/__mockd/sessions").objectValue?["sessions"]?.arrayValue ?? []
        for entry in sessions where entry.objectValue?["id"]?.stringValue == session {
            if let text = entry.objectValue?["baseURL"]?.stringValue, let url = URL(string: text) { return url }
        }
        throw ToolRefusal("no open session \"\(session)\"; list_sessions shows them")
    }

    private func requests(_ arguments: ToolArguments, waiting: Bool) async throws(ToolRefusal) -> Value {
        var query: [URLQueryItem] = []
        if let session = try ToolScope.of(arguments, ownSession: own.id).session {
            query.append(URLQueryItem(name: "session", value: session))
        }
        if let method = try arguments.string("method") { query.append(URLQueryItem(name: "method", value: method.uppercased())) }
        if let path = try arguments.string("path") { query.append(URLQueryItem(name: "path", value: path)) }
        if let status = try arguments.int("status") { query.append(URLQueryItem(name: "status", value: String(status))) }
        var timeout: TimeInterval?
        if waiting {
            let count = try arguments.int("count") ?? 1
            let wait = try arguments.int("wait") ?? 10
            guard count >= 1 else { throw ToolRefusal("\"count\" must be 1 or more") }
            guard (0...60).contains(wait) else { throw ToolRefusal("\"wait\" must be 0 to 60 seconds") }
            query.append(URLQueryItem(name: "count", value: String(count)))
            query.append(URLQueryItem(name: "wait", value: String(wait)))
            timeout = TimeInterval(wait + 30)
        } else if let limit = try arguments.int("limit") {
            query.append(URLQueryItem(name: "limit", value: String(limit)))
        }
        return try await admin.get("/__mockd/requests", query: query, timeout: timeout)
    }

    // MARK: Writing

    private func createMock(_ arguments: ToolArguments) async throws(ToolRefusal) -> Value {
        let text: String
        switch arguments.values["body"] {
        case .string(let given)?: text = given
        case nil, .null?: throw ToolRefusal("\"body\" is required: the answer's JSON")
        case let value?:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            text = String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
        }
        var body: [String: Value] = [
            "method": .string(try arguments.requiredString("method")), "path": .string(try arguments.requiredString("path")),
            "body": .string(text),
        ]
        if let status = try arguments.int("status") { body["status"] = .int(status) }
        if let scenario = try arguments.string("scenario") { body["scenario"] = .string(scenario) }
        return try await admin.call("POST", "/__mockd/mocks", json: .object(body))
    }

    private func addStub(_ arguments: ToolArguments) async throws(ToolRefusal) -> Value {
        guard var route = try arguments.object("route") else { throw ToolRefusal("\"route\" is required: one route-table object") }
        guard route["session"] == nil else {
            throw ToolRefusal("give the session as the tool's \"session\" argument, not inside \"route\"")
        }
        if let session = try ToolScope.of(arguments, ownSession: own.id).session { route["session"] = .string(session) }
        return try await admin.call("POST", "/__mockd/stubs", json: .object(route))
    }

    private func setScenario(_ arguments: ToolArguments) async throws(ToolRefusal) -> Value {
        let scope = try ToolScope.of(arguments, ownSession: own.id)
        var body: [String: Value] = ["scenario": .string(try arguments.requiredString("scenario"))]
        if let session = scope.session { body["session"] = .string(session) }
        _ = try await admin.call("PUT", "/__mockd/scenario", json: .object(body))
        return ["scenario": body["scenario"]!, "session": scope.session.map { .string($0) } ?? .null, "global": .bool(scope == .global)]
    }

    private func reset(_ arguments: ToolArguments) async throws(ToolRefusal) -> Value {
        let scope = try ToolScope.of(arguments, ownSession: own.id)
        if let session = scope.session {
            _ = try await admin.call("POST", "/__mockd/reset", json: ["session": .string(session)])
        } else {
            _ = try await admin.call("POST", "/__mockd/reset")
        }
        return ["reset": scope.session.map { .string($0) } ?? "everything"]
    }

    /// A reload is the server's own check of what it serves (its root, route tables and documents,
    /// with the options it was started with): 200 with the counts, 422 with every error. Both
    /// are results; only a refusal to reload is a tool error.
    private func check() async throws(ToolRefusal) -> Value {
        let body: Data
        do {
            body = try await admin.client.send("POST", "/__mockd/reload")
        } catch MockdError.http(let status, _, let text) where status == 422 {
            body = Data(text.utf8)
        } catch let error as MockdError {
            throw AdminCalls.refusal(error)
        } catch {
            throw ToolRefusal("POST /__mockd/reload: \(error.localizedDescription)")
        }
        // The report says "status": "ok" or "failed"; "ok" first lets a model read it at a glance.
        var report = (try? JSONDecoder().decode([String: Value].self, from: body)) ?? [:]
        report["ok"] = .bool(report["status"]?.stringValue == "ok")
        return .object(report)
    }

    private func importFile(_ arguments: ToolArguments) async throws(ToolRefusal) -> Value {
        guard let executable else { throw ToolRefusal("cannot find the mockd executable to run mockd import") }
        let file = try arguments.requiredString("file")
        let dryRun = try arguments.bool("dry_run") ?? true
        let health = try await admin.get("/__mockd/health").objectValue ?? [:]
        guard let root = health["root"]?.stringValue else { throw ToolRefusal("mockd's health names no root folder") }
        var command = ["import", file, "--root", root]
        if let routes = health["routesFolder"]?.stringValue { command += ["--routes", routes] }
        if let host = try arguments.string("host") { command += ["--host", host] }
        if let scenario = try arguments.string("scenario") { command += ["--scenario", scenario] }
        if dryRun { command.append("--dry-run") }
        let outcome = try await MockdCommand.run(executable, command)
        guard outcome.status == 0 else {
            throw ToolRefusal("mockd import failed (exit \(outcome.status)): " + outcome.output.trimmingSuffix("\n"))
        }
        var result: [String: Value] = [
            "dryRun": .bool(dryRun),
            "lines": .array(outcome.output.split(separator: "\n").map { .string(String($0)) }),
        ]
        if !dryRun { result["reload"] = try await check() }
        return .object(result)
    }

    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}
