package import MCP

/// The tools `mockd mcp` offers, with descriptions written for a model choosing among them: what
/// each does, where it acts (the agent's own session unless told otherwise), and what it writes.
package enum ToolCatalog {
    /// The arguments every session-scoped tool takes, in its schema.
    static let scopeProperties: [String: Value] = [
        "session": .object([
            "type": "string",
            "description": "Another session's id (open_session, list_sessions); default: this MCP server's own session.",
        ]),
        "global": .object([
            "type": "boolean",
            "description": "true: act on the whole server, every session included (a running UI test's too). Never the default.",
        ]),
    ]

    static let filterProperties: [String: Value] = [
        "method": .object(["type": "string", "description": "Only this method, such as POST."]),
        "path": .object(["type": "string", "description": "Only paths matching this glob, such as /api/v1/* (a final ** matches deeper)."]),
        "status": .object(["type": "integer", "description": "Only answers with this status (404: every miss)."]),
    ]

    static func schema(_ properties: [String: Value], required: [String] = []) -> Value {
        var members: [String: Value] = ["type": "object", "properties": .object(properties), "additionalProperties": false]
        if !required.isEmpty { members["required"] = .array(required.map { .string($0) }) }
        return .object(members)
    }

    /// Schema properties from several groups; a name in two keeps the first.
    static func combined(_ groups: [String: Value]...) -> [String: Value] {
        groups.reduce(into: [:]) { all, group in all.merge(group) { first, _ in first } }
    }

    /// Each tool's argument names, from its schema: what `ToolArguments` accepts.
    package static func argumentNames(of name: String) -> [String]? {
        guard let tool = tools.first(where: { $0.name == name }) else { return nil }
        return tool.inputSchema.objectValue?["properties"]?.objectValue.map { Array($0.keys) } ?? []
    }

    package static let tools: [Tool] = [
        Tool(
            name: "status",
            description: """
                Start here. What the mockd serves and where: its root folder and route tables, how many files and routes, \
                the known scenarios, OpenAPI/GraphQL documents, the open sessions, and this MCP server's own session \
                (its baseURL is where the app under development should send its requests).
                """,
            inputSchema: schema([:]), annotations: .init(readOnlyHint: true)),
        Tool(
            name: "explain_request",
            description: """
                Which source answers METHOD PATH, and why not when nothing does. Sends the request to the session's \
                base URL as the app would (it is journaled there, and advances a sequence or changes a resource like any \
                request): on an answer, its status and X-Mockd-Source (the file, route or stub); on a 404, mockd's report \
                with the near misses and hints (a file for the wrong method, a scenario that has it, a misspelt name).
                """,
            inputSchema: schema(
                [
                    "method": .object(["type": "string", "description": "GET, POST, …"]),
                    "path": .object(["type": "string", "description": "The path with any query, such as /api/v1/users?page=2."]),
                    "scenario": .object(["type": "string", "description": "Ask in this scenario (X-Mock-Scenario) for this request only."]),
                    "headers": .object([
                        "type": "object", "description": "Request headers, name to value.", "additionalProperties": ["type": "string"],
                    ]),
                    "body": .object(["type": "string", "description": "The request body, as text."]),
                    "session": scopeProperties["session"]!,
                ], required: ["method", "path"]),
            annotations: .init(openWorldHint: false)),
        Tool(
            name: "create_mock",
            description: """
                Write a new mock file under mockd's root (mock_<path>_<method>.json, or under scenarios/<name>/ for a \
                scenario), checked by mockd before anything is written: its JSON, and, when mockd serves an OpenAPI \
                document that documents the request, that answer's schema (a body that breaks it is refused with every \
                violation). The server reloads before answering, so the next request gets it. It answers every session \
                (it is a file in the working tree, for the developer to review as a diff). Never overwrites: when a file \
                answers the request already, it is refused and named (edit that file instead). For a temporary answer in \
                this session only, use add_stub; for path parameters, conditions or sequences, create_route_table.
                """,
            inputSchema: schema(
                [
                    "method": .object(["type": "string", "description": "GET, POST, … in capitals."]),
                    "path": .object(["type": "string", "description": "The request path, such as /api/v1/feed (no query)."]),
                    "body": .object(["description": "The answer's JSON: a JSON value, or its text as a string."]),
                    "status": .object(["type": "integer", "description": "The status to answer with (default 200)."]),
                    "scenario": .object(["type": "string", "description": "Write it for this scenario only (scenarios/<name>/)."]),
                ], required: ["method", "path", "body"]),
            annotations: .init(destructiveHint: false, idempotentHint: false)),
        Tool(
            name: "create_route_table",
            description: """
                Write a new route table (a JSON file in mockd's routes folder) holding one or more routes, for what a \
                mock file cannot say: path parameters (/api/users/:id), header, query or body conditions, sequences, \
                delays, faults, templates. Each route is a route-table object (see the mockd://docs/routes resource): \
                {"method": "GET", "path": "/api/users/:id", "response": {"status": 200, "json": {…}}}. mockd checks the \
                table as a reload would, and each JSON answer against the OpenAPI document it serves, before anything is \
                written, and lists every error; the server reloads before answering. Never overwrites: choose a new file \
                name. It answers every session; for this session only, use add_stub.
                """,
            inputSchema: schema(
                [
                    "table": .object(["type": "string", "description": "The new file's name, such as checkout.json (no folders)."]),
                    "routes": .object([
                        "type": "array", "description": "The routes, each a route-table object.", "items": ["type": "object"],
                    ]),
                ], required: ["table", "routes"]),
            annotations: .init(destructiveHint: false, idempotentHint: false)),
        Tool(
            name: "add_stub",
            description: """
                Answer a request from memory, ahead of every file and route, in this MCP server's session only (nothing \
                is written; gone on reset or when the session closes). "route" is one route-table object (see the \
                mockd://docs/routes resource): {"method": "GET", "path": "/api/users/:id", "response": {"status": 200, \
                "json": {…}}}; "responses", "delayMs", "fault" and "template" work too. Returns the stub's id for \
                remove_stub. "global": true makes it answer every session.
                """,
            inputSchema: schema(
                combined(["route": .object(["type": "object", "description": "The route object, without \"session\"."])], scopeProperties),
                required: ["route"])),
        Tool(
            name: "remove_stub",
            description: "Remove a stub by the id add_stub or list_stubs gave.",
            inputSchema: schema(["id": .object(["type": "string", "description": "The stub's id."])], required: ["id"]),
            annotations: .init(destructiveHint: true, idempotentHint: true)),
        Tool(
            name: "list_stubs",
            description: "The stubs in place on the server, newest first, with their ids and sessions.",
            inputSchema: schema([:]), annotations: .init(readOnlyHint: true)),
        Tool(
            name: "set_scenario",
            description: """
                Switch the scenario (a folder under scenarios/, or a route's "scenario") for this MCP server's session. \
                An unknown name is refused with the known ones. "global": true switches the server's scenario instead, \
                which every session without one of its own follows.
                """,
            inputSchema: schema(
                combined(["scenario": .object(["type": "string", "description": "The scenario; \"default\" for none."])], scopeProperties),
                required: ["scenario"]),
            annotations: .init(idempotentHint: true)),
        Tool(
            name: "open_session",
            description: """
                Open another session: a port of its own (its baseURL) with its own scenario, stubs, sequences and journal, \
                for a second app or simulator. This MCP server has one already (see status); close what you open.
                """,
            inputSchema: schema([
                "id": .object(["type": "string", "description": "The session's id; mockd makes one when absent."]),
                "scenario": .object(["type": "string", "description": "The session's scenario."]),
            ])),
        Tool(
            name: "list_sessions",
            description: "The open sessions: id, port, baseURL, scenario.",
            inputSchema: schema([:]), annotations: .init(readOnlyHint: true)),
        Tool(
            name: "close_session",
            description: "Close a session's port and forget its stubs and scenario (its journal entries stay). Not this MCP server's own.",
            inputSchema: schema(["id": .object(["type": "string", "description": "The session's id."])], required: ["id"]),
            annotations: .init(destructiveHint: true)),
        Tool(
            name: "list_requests",
            description: """
                What the app sent to this MCP server's session, oldest first, with mockd's answer and the source that \
                gave it; filtered by method, path glob and status. "global": true lists every session's requests.
                """,
            inputSchema: schema(
                combined(filterProperties, ["limit": .object(["type": "integer", "description": "Only the newest N."])], scopeProperties)),
            annotations: .init(readOnlyHint: true)),
        Tool(
            name: "wait_for_requests",
            description: """
                Wait until the app has sent `count` requests matching the filters to this MCP server's session (or \
                "global": true, to any), for at most `wait` seconds; returns them, with "complete": false when time ran \
                out. Use this instead of sleeping after you start the app.
                """,
            inputSchema: schema(
                combined(
                    filterProperties,
                    [
                        "count": .object(["type": "integer", "description": "How many must match (default 1)."]),
                        "wait": .object(["type": "integer", "description": "Seconds to wait at most (default 10, at most 60)."]),
                    ], scopeProperties)),
            annotations: .init(readOnlyHint: true)),
        Tool(
            name: "reset",
            description: """
                Reset this MCP server's session: its scenario, sequences, stubs, resource copies and journal entries. \
                "global": true resets the whole server instead (every session's stubs and the journal): only when asked to.
                """,
            inputSchema: schema(scopeProperties), annotations: .init(destructiveHint: true, idempotentHint: true)),
        Tool(
            name: "check",
            description: """
                Check the root folder and route tables as `mockd check` does, by having the server reload them: ok, the \
                counts, and every error and warning with its file and place. Run it after editing files by hand.
                """,
            inputSchema: schema([:]), annotations: .init(idempotentHint: true)),
        Tool(
            name: "import",
            description: """
                Write mocks from a HAR capture (Proxyman, Charles, a browser) or a Postman collection into the root, as \
                `mockd import` does. A dry run by default: it lists what it would write; call again with "dry_run": false \
                to write. Never overwrites an existing mock.
                """,
            inputSchema: schema(
                [
                    "file": .object([
                        "type": "string",
                        "description":
                            "The .har or Postman .json file: an absolute path, or relative to the folder mockd mcp was started in.",
                    ]),
                    "dry_run": .object(["type": "boolean", "description": "Only list what would be written (default true)."]),
                    "host": .object(["type": "string", "description": "HAR: import this host's entries (default: the host with the most)."]
                    ),
                    "scenario": .object(["type": "string", "description": "HAR: write them as this scenario's."]),
                ], required: ["file"])),
    ]
}
