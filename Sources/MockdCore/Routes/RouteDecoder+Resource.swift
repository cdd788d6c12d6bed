extension RouteDecoder {
    static let resourceKeys = ["resource", "seed", "id", "scenario", "delayMs"]

    /// `{"resource": "/api/entries", "seed": "entries.json", "id": "id", "scenario": "empty"}`:
    /// a collection requests can write to. Its seed is read now, with the overlays of it that
    /// scenario folders hold; a seed that is not an array of objects with unique ids is an error
    /// naming the table's entry and the place in the seed.
    mutating func decodeResource(_ value: JSONValue, index: Int) {
        let at = "routes[\(index)]"
        let errorsBefore = diagnostics.count
        checkKeys(value, allowed: Self.resourceKeys, at: at)
        var path: String?
        switch value["resource"] {
        case .string(let text)?
        where text.hasPrefix("/") && text.count > 1 && !text.hasSuffix("/")
            && !text.contains(where: { "*:?#".contains($0) }) && !AdminAPI.isAdminPath(text):
            path = text
        case let raw?:
            error(
                at + ".resource",
                "expected the collection's path, such as \"/api/v1/sleep/entries\" (no parameters, no trailing /), found \(found(raw))")
        case nil:
            break
        }
        var idField = "id"
        if let raw = value["id"] {
            if case .string(let text) = raw, !text.isEmpty {
                idField = text
            } else {
                error(at + ".id", "expected the name of the identifying field, such as \"id\", found \(found(raw))")
            }
        }
        var scenario: String?
        if let raw = value["scenario"] {
            scenario = string(raw, at: at + ".scenario")
            if scenario?.isEmpty == true { error(at + ".scenario", "expected a scenario name, found an empty string") }
        }
        let delay = value["delayMs"].flatMap { decodeDelay($0, at: at + ".delayMs") }
        var seedFile: String?
        if let raw = value["seed"] {
            if case .string(let text) = raw, !text.isEmpty {
                seedFile = text
            } else {
                error(at + ".seed", "expected a JSON file relative to the mock root, holding an array of objects, found \(found(raw))")
            }
        }
        guard diagnostics[errorsBefore...].allSatisfy({ $0.severity == .warning }), let path else { return }

        var seeds: [String: ResourceItems] = [:]
        if let seedFile {
            guard let base = seed(seedFile, idField: idField, at: at + ".seed") else { return }
            seeds[""] = base
            for (name, relativePath) in overlaySeeds(of: seedFile, scenario: scenario) {
                guard let overlay = seed(relativePath, idField: idField, at: at + ".seed") else { return }
                seeds[name] = overlay
            }
        } else {
            seeds[""] = ResourceItems(integerIDs: true, nextInteger: 1, fingerprint: 0)
        }
        resources.append(
            Resource(
                path: path, idField: idField, scenario: scenario, source: "\(file)#\(index)", seedFile: seedFile,
                seeds: seeds, delay: delay))
    }

    /// Scenario → the overlay of `seedFile` under `scenarios/<name>/`: the mock file of the same
    /// name there (as files are overlaid), else the same relative path under the scenario's folder.
    func overlaySeeds(of seedFile: String, scenario: String?) -> [(String, String)] {
        let name = String(PathText.lastComponent(seedFile, .bytes))
        var names = Set(overlays.keys)
        if let scenario { names.insert(scenario) }
        return names.sorted().compactMap { scenario in
            if let file = overlays[scenario]?[name] { return (scenario, file.relativePath) }
            let relativePath = MockDataLoader.scenariosFolder + "/" + scenario + "/" + seedFile
            return files.realPath(root + "/" + relativePath) == nil ? nil : (scenario, relativePath)
        }
    }

    /// A seed file's items, or nil after reporting what is wrong with it.
    mutating func seed(_ relativePath: String, idField: String, at: String) -> ResourceItems? {
        guard let bytes = readBodyFile(relativePath, at: at) else { return nil }
        seedFiles.insert(relativePath)
        let shown = PathText.withoutTrailingSlashes(root) + "/" + relativePath
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            self.error(at, "\(shown): \(error.location): invalid JSON: \(error.message)")
            return nil
        }
        // Not Swift's Hasher, which is seeded anew in each process: a saved state records this.
        var hasher = MockFileTable.Hasher64()
        for byte in bytes { hasher.feed(byte) }
        switch ResourceItems.seed(value, idField: idField, fingerprint: Int(truncatingIfNeeded: hasher.finished)) {
        case .success(let items):
            return items
        case .failure(let problem):
            error(at, "\(shown)\(problem.location.map { " \($0)" } ?? ""): \(problem.message)")
            return nil
        }
    }
}
