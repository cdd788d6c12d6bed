/// Mock files held to the API descriptions served beside them. Teams keep hand-written mocks
/// next to a document the backend owns, and the two drift apart until the app breaks against
/// the real server: every file whose name answers a documented operation is checked against
/// the schema of its answer at each load, and each way it breaks it is a warning (so
/// `mockd check --strict` fails on drift). Run at load only, never on the request path.
enum ContractDrift {
    /// At most this many violations are listed per file; a count says how many more there are.
    static let violationsPerFile = 5

    static func warnings(files: MockFileTable, overlays: [String: MockFileTable], operations: OperationTable, rootDisplay: String)
        -> [Diagnostic]
    {
        guard !operations.isEmpty else { return [] }
        let index = StemIndex(operations)
        var found: [Diagnostic] = []
        for table in [files] + overlays.keys.sorted().compactMap({ overlays[$0] }) {
            for file in table.values {
                found += warnings(file, index: index, rootDisplay: rootDisplay)
            }
        }
        return found
    }

    private static func warnings(_ file: MockFile, index: StemIndex, rootDisplay: String) -> [Diagnostic] {
        let response = file.response
        guard response.stream == nil, response.conversation == nil,
            case .mock(let method, let stem) = MockFileName.parse(file.name),
            let operation = index.operation(method: method, stem: stem),
            let body = try? JSONParser.parse(response.body.array),
            let finding = OperationTable.contractFinding(operation, status: response.status, body: body)
        else { return [] }
        let shown = rootDisplay + "/" + file.relativePath
        var lines = finding.violations.prefix(violationsPerFile).map { violation -> Diagnostic in
            // `body.items[0].id: expected …`: the place in the file, which is the body.
            let parts = violation.split(separator: ": ", maxSplits: 1, omittingEmptySubsequences: false)
            let place = parts.count == 2 ? String(parts[0]) : "body"
            let location = place == "body" ? nil : String(place.dropFirst(place.hasPrefix("body.") ? 5 : 4))
            return Diagnostic(
                .warning, file: shown, location: location, "breaks \(finding.checkedAgainst): \(parts.count == 2 ? parts[1] : parts[0])")
        }
        if finding.violations.count > violationsPerFile {
            lines.append(
                Diagnostic(
                    .warning, file: shown, "breaks \(finding.checkedAgainst) in \(finding.violations.count - violationsPerFile) more places"
                ))
        }
        return lines
    }

    /// The operations by method, each with its path template as a file name's stem would spell
    /// it (`/pets/{id}` → `_pets_` + any value), most literal segments first: `/pets/mine`
    /// before `/pets/{id}`, as a request would find them. The templates' bytes are taken once:
    /// every file is tried against every operation of its method.
    struct StemIndex {
        enum Part {
            case literal([UInt8])
            case parameter(prefix: [UInt8], suffix: [UInt8])
        }

        private var byMethod: [String: [(operation: APIOperation, parts: [Part])]] = [:]

        init(_ table: OperationTable) {
            for operation in table.operations {
                byMethod[operation.method, default: []].append((operation, Self.parts(operation.segments)))
            }
            for method in byMethod.keys {
                // Then the more fixed text around parameters (`{id}.pgn` before `{id}`), as the
                // operation table's tree orders them.
                byMethod[method]?.sort {
                    (Self.literals($0.parts), Self.fixedBytes($0.parts)) > (Self.literals($1.parts), Self.fixedBytes($1.parts))
                }
            }
        }

        static func parts(_ segments: [OperationSegment]) -> [Part] {
            segments.map { segment in
                switch segment {
                case .literal(let text): .literal(Array(text.utf8))
                case .parameter(_, let prefix, let suffix): .parameter(prefix: Array(prefix.utf8), suffix: Array(suffix.utf8))
                }
            }
        }

        private static func literals(_ parts: [Part]) -> Int {
            parts.count { if case .literal = $0 { true } else { false } }
        }

        private static func fixedBytes(_ parts: [Part]) -> Int {
            parts.reduce(0) { sum, part in
                if case .parameter(let prefix, let suffix) = part { sum + prefix.count + suffix.count } else { sum }
            }
        }

        /// The documented operation a file of this method and stem (`_api_users_7`) answers.
        func operation(method: String, stem: String) -> APIOperation? {
            let bytes = Array(stem.utf8)
            return byMethod[method]?.first { Self.fits(bytes[...], $0.parts[...]) }?.operation
        }

        /// Whether `stem` is what a path of these parts becomes in a file name: each segment
        /// after a `_` (the path's `/`), a parameter any non-empty text between its fixed parts.
        /// A value may hold `_` (a `/` in the name cannot be told from it), so each end is tried.
        static func fits(_ stem: ArraySlice<UInt8>, _ parts: ArraySlice<Part>) -> Bool {
            guard let part = parts.first else { return stem.isEmpty }
            guard stem.first == UInt8(ascii: "_") else { return false }
            let rest = stem.dropFirst()
            switch part {
            case .literal(let literal):
                guard rest.starts(with: literal) else { return false }
                return fits(rest.dropFirst(literal.count), parts.dropFirst())
            case .parameter(let before, let after):
                guard rest.starts(with: before) else { return false }
                let value = rest.dropFirst(before.count)
                var end = value.startIndex + 1
                while end <= value.endIndex {
                    let tail = value[end...]
                    if tail.starts(with: after), fits(tail.dropFirst(after.count), parts.dropFirst()) { return true }
                    end += 1
                }
                return false
            }
        }
    }
}
