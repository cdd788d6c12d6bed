/// Writes new files under the root for `POST /__mockd/mocks`: the executable's, since the core
/// does no I/O. A new file only: an existing one is never replaced.
/// What writing a new mock file came to (`AdminStep.writeMockFile`).
package enum MockFileWriteResult: Sendable, Equatable {
    case written
    /// Something has that name already (it appeared since the snapshot was read).
    case exists
    /// The system's reason.
    case failed(String)
}

/// A mock file a dashboard or an agent asks for (`POST /__mockd/mocks`), checked before anything
/// is written (its JSON, its name, and the `--openapi` schema of the answer it gives):
/// `{"method": "GET", "path": "/api/feed", "body": "{…}", "status": 200, "scenario": "empty"}`.
struct MockCreation: Equatable {
    /// Under the root: `mock_api_feed_get.json`, `scenarios/empty/mock_api_feed_get.500.json`.
    let relativePath: String
    let bytes: [UInt8]

    /// The request's fields checked, or a 400/409 answer saying what is wrong.
    static func decode(_ body: [UInt8], snapshot: Snapshot) -> Result<MockCreation, ErrorAnswer> {
        guard let value = try? JSONParser.parse(body), case .object(let members) = value else {
            return .failure(ErrorAnswer(400, #"expected a JSON object like {"method": "GET", "path": "/api/feed", "body": "{}"}"#))
        }
        if let unknown = AdminKeys.mocks.unknown(members.map(\.key)) { return .failure(unknown) }
        guard case .string(let method)? = value["method"], !method.isEmpty,
            method.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
        else {
            return .failure(ErrorAnswer(400, #""method" must be an HTTP method in capitals, like "GET""#))
        }
        guard case .string(let path)? = value["path"] else {
            return .failure(ErrorAnswer(400, #""path" must be a string like "/api/feed""#))
        }
        if let problem = pathProblem(path) { return .failure(ErrorAnswer(400, problem)) }
        guard case .string(let text)? = value["body"] else {
            return .failure(ErrorAnswer(400, #""body" must be the file's JSON text, as a string"#))
        }
        let parsed: JSONValue
        do throws(JSONParser.SyntaxError) {
            parsed = try JSONParser.parse(text)
        } catch {
            return .failure(ErrorAnswer(400, "\"body\" is not JSON: \(error.description)"))
        }
        var status = 200
        if let raw = value["status"] {
            guard case .number(let digits) = raw, let number = Int(digits), MockFileName.fileStatuses.contains(number) else {
                return .failure(
                    ErrorAnswer(
                        400,
                        "\"status\" must be a whole number from \(MockFileName.fileStatuses.lowerBound) to \(MockFileName.fileStatuses.upperBound)"
                    ))
            }
            status = number
        }
        var scenario: String?
        switch value["scenario"] {
        case nil, .null?: break
        case .string(let name)?:
            if let problem = scenarioProblem(name) { return .failure(ErrorAnswer(400, problem)) }
            scenario = name == Scenario.default ? nil : name
        default: return .failure(ErrorAnswer(400, #""scenario" must be a scenario name or null"#))
        }
        let served = MockFileName.forRequest(method: method, path: path)
        let fileName = status == 200 ? served : String(served.dropLast(5)) + ".\(status).json"
        let relativePath = (scenario.map { "scenarios/\($0)/" } ?? "") + fileName
        // The same request answered by another file would make the next reload fail (two
        // files, one name) or never be seen: say which file answers it now.
        let existing = scenario.map { snapshot.overlays[$0]?[served] } ?? snapshot.files[served]
        if let existing {
            return .failure(
                ErrorAnswer(
                    409,
                    "\(snapshot.rootDisplayPath)/\(existing.relativePath) already answers \(method) \(path); mockd never overwrites a file",
                    details: [("file", .string(existing.relativePath))]))
        }
        // A mock the served API description contradicts would teach the app an answer the real
        // server never gives: refused, with every place it breaks the documented schema.
        if let finding = snapshot.operations.contractFinding(method: method, path: path, status: status, body: parsed),
            !finding.violations.isEmpty
        {
            let shown = finding.violations.prefix(5).joined(separator: "; ") + (finding.violations.count > 5 ? "; …" : "")
            return .failure(
                ErrorAnswer(
                    422, "\"body\" breaks \(finding.checkedAgainst): \(shown)",
                    details: [
                        ("checkedAgainst", .string(finding.checkedAgainst)),
                        ("violations", .array(finding.violations.map { .string($0) })),
                    ]))
        }
        var bytes = Array(text.utf8)
        if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        return .success(MockCreation(relativePath: relativePath, bytes: bytes))
    }

    /// Why `path` cannot name a mock file under the root, or nil.
    static func pathProblem(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return "\"path\" must start with '/', found \(JSONText.quoted(path))" }
        guard !path.utf8.contains(0), !path.contains("\\") else { return "\"path\" must not contain NUL or '\\'" }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        if segments.contains(where: { $0 == "." || $0 == ".." }) {
            return "\"path\" must not contain '.' or '..' segments, found \(JSONText.quoted(path))"
        }
        // The file name must fit a file system's 255 bytes: "mock" + path + "_method.NNN.json".
        guard path.utf8.count <= 200 else { return "\"path\" is longer than 200 bytes: no file name can hold it" }
        return nil
    }

    /// What a name mockd writes (a scenario folder, a route table) may be made of: letters,
    /// digits, `-`, `_` and `.`; nothing a shell or a path reads specially.
    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ".")
    }

    /// Why `name` cannot be a folder under `scenarios/`, or nil.
    static func scenarioProblem(_ name: String) -> String? {
        let allowed = name.utf8.allSatisfy(isNameByte)
        guard !name.isEmpty, allowed, !name.hasPrefix("."), name.utf8.count <= 100 else {
            return
                "\"scenario\" must be a folder name of letters, digits, '-', '_' and '.', not starting with '.'; found \(JSONText.quoted(name))"
        }
        return nil
    }
}

extension AdminAPI {
    /// `POST /__mockd/mocks`: checks, writes the file, reloads, and answers 201 with the new file
    /// and the reload's report (so a request right after the answer gets the new mock).
    func createMock(_ request: MockRequest, _ context: Context) -> AdminStep {
        if let refusal = writeRefusal(context) { return .answer(refusal) }
        let creation: MockCreation
        switch MockCreation.decode(request.body, snapshot: context.snapshot) {
        case .success(let checked): creation = checked
        case .failure(let refusal): return .answer(refuse(refusal))
        }
        let shown = "\(context.snapshot.rootDisplayPath)/\(creation.relativePath)"
        return .writeMockFile(
            relativePath: creation.relativePath, bytes: creation.bytes, then: afterWritingNewFile(creation.relativePath, shown: shown))
    }

    /// Why this server may not write files for this caller (403: beyond loopback without a
    /// token), or cannot (501: no writer), or nil.
    func writeRefusal(_ context: Context) -> BuiltResponse? {
        if let refusal = context.writeRefusal { return refuse(ErrorAnswer(403, refusal)) }
        guard context.writesMocks else { return refuse(ErrorAnswer(501, "this server cannot write files")) }
        return nil
    }

    /// What follows writing a new file (a mock, a route table): a reload, then 201 with the file
    /// and the reload's report, so a request right after the answer is served from it; 409 when
    /// a file of that name appeared since the snapshot was read; 500 with the system's reason.
    func afterWritingNewFile(_ file: String, shown: String) -> @Sendable (MockFileWriteResult) -> AdminStep {
        { written in
            switch written {
            case .written:
                return .reload(trigger: "admin") { report in
                    .answer(json(201, .object([("file", .string(file)), ("path", .string(shown)), ("reload", report.json)])))
                }
            case .exists:
                return .answer(
                    refuse(ErrorAnswer(409, "\(shown) exists; mockd never overwrites a file", details: [("file", .string(file))])))
            case .failed(let reason):
                return .answer(refuse(ErrorAnswer(500, "cannot write \(shown): \(reason)")))
            }
        }
    }
}
