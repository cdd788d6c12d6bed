/// A new route table an agent or a test asks for (`POST /__mockd/route-tables`), checked as a
/// reload would check it, and against the `--openapi` schema of each JSON answer, before anything
/// is written: `{"table": "checkout.json", "routes": [{"method": "POST", "path": "/api/orders", …}]}`.
struct RouteTableCreation: Equatable {
    /// In the routes folder: `checkout.json`.
    let fileName: String
    /// `{"routes": [ … ]}`, pretty-printed: a developer reviews it as a diff.
    let bytes: [UInt8]

    /// The request checked, or the answer saying what is wrong. `files` serves route bodies
    /// that name a file under the root.
    static func decode(_ body: [UInt8], snapshot: Snapshot, files: any FileSource) -> Result<RouteTableCreation, ErrorAnswer> {
        guard let value = try? JSONParser.parse(body), case .object(let members) = value else {
            return .failure(ErrorAnswer(400, #"expected a JSON object like {"table": "checkout.json", "routes": [{"method": "GET", …}]}"#))
        }
        if let unknown = AdminKeys.routeTables.unknown(members.map(\.key)) { return .failure(unknown) }
        guard case .string(let fileName)? = value["table"] else {
            return .failure(ErrorAnswer(400, #""table" must be the new table's file name, like "checkout.json""#))
        }
        if let problem = tableNameProblem(fileName) { return .failure(ErrorAnswer(400, problem)) }
        guard let folder = snapshot.routesPath else {
            return .failure(
                ErrorAnswer(
                    409, "this mockd has no routes folder: start it with --routes DIR (or make a routes/ folder beside the root)"))
        }
        guard case .array(let routes)? = value["routes"], !routes.isEmpty else {
            return .failure(ErrorAnswer(400, #""routes" must be a non-empty array of routes, in the route-table format"#))
        }
        let table = JSONValue.object([("routes", .array(routes))])
        let shown = folder + "/" + fileName
        var decoder = RouteDecoder(file: shown, root: snapshot.rootDisplayPath, files: files, builder: ResponseBuilder(), firstOrder: 0)
        decoder.decodeTable(table)
        let errors = decoder.diagnostics.filter { $0.severity == .error }.map { ($0.location.map { "\($0): " } ?? "") + $0.message }
        if !errors.isEmpty {
            return .failure(
                ErrorAnswer(
                    400, "the table is not one mockd can serve: \(errors[0])", details: [("errors", .array(errors.map { .string($0) }))]))
        }
        let contract = routes.enumerated().flatMap { index, route in
            snapshot.operations.contractViolations(route: route, at: "routes[\(index)]").map { "\($0.location): \($0.message)" }
        }
        if !contract.isEmpty {
            return .failure(
                ErrorAnswer(
                    422, "the table's answers break the API description: \(contract[0])",
                    details: [("violations", .array(contract.map { .string($0) }))]))
        }
        return .success(RouteTableCreation(fileName: fileName, bytes: Array((table.prettyPrinted + "\n").utf8)))
    }

    /// Why `name` cannot be a new table's file name in the routes folder, or nil.
    static func tableNameProblem(_ name: String) -> String? {
        let allowed = name.utf8.allSatisfy(MockCreation.isNameByte)
        guard allowed, name.hasSuffix(".json"), name.utf8.count > 5, !name.hasPrefix("."), name.utf8.count <= 100 else {
            return
                "\"table\" must be a file name of letters, digits, '-', '_' and '.' ending in .json (no folders), found \(JSONText.quoted(name))"
        }
        return nil
    }
}

extension AdminAPI {
    /// `POST /__mockd/route-tables`: checks, writes the new table, reloads, and answers 201 with
    /// the file and the reload's report (so a request right after the answer gets its routes).
    func createRouteTable(_ request: MockRequest, _ context: Context) -> AdminStep {
        if let refusal = writeRefusal(context) { return .answer(refusal) }
        let snapshot = context.snapshot
        let write = { @Sendable (decoded: Result<RouteTableCreation, ErrorAnswer>) -> AdminStep in
            let creation: RouteTableCreation
            switch decoded {
            case .success(let checked): creation = checked
            case .failure(let refusal): return .answer(refuse(refusal))
            }
            // `decode` refuses a snapshot without a routes folder.
            let path = (snapshot.routesPath ?? "") + "/" + creation.fileName
            return .writeRouteTable(path: path, bytes: creation.bytes, then: afterWritingNewFile(creation.fileName, shown: path))
        }
        // Checked without files first: a route whose body names a file is checked again once the
        // adapter gives the files, off the request's thread.
        let unread = UnreadFiles()
        let decoded = RouteTableCreation.decode(request.body, snapshot: snapshot, files: unread)
        guard unread.wereAsked else { return write(decoded) }
        return .readFiles { files in write(RouteTableCreation.decode(request.body, snapshot: snapshot, files: files)) }
    }
}
