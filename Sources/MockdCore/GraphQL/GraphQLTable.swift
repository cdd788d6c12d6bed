/// `--graphql`: which paths are GraphQL endpoints, and who reads their documents. Given to the
/// loader; what it loads for them is the snapshot's `GraphQLTable`.
package struct GraphQLConfiguration: Sendable {
    /// The endpoints' paths (`/graphql`), as given.
    package var endpoints: [String]
    /// Reads a document that names no operation; nil: such a request is refused (400).
    package var reader: (any GraphQLDocumentReader)?
    /// `--graphql-schema`: answers what nothing else answers; nil: such an operation is a 404.
    package var schema: (any GraphQLSchemaSource)?

    package init(endpoints: [String] = [], reader: (any GraphQLDocumentReader)? = nil, schema: (any GraphQLSchemaSource)? = nil) {
        self.endpoints = endpoints
        self.reader = reader
        self.schema = schema
    }
}

/// An operation's answer by file: `graphql/GetFeed.json` anywhere under the root (or
/// `graphql/GetFeed.500.json` for another status), prepared at load like a mock file; or a
/// subscription's events, `graphql/OnScore.ws`, whose prepared response carries them.
package struct GraphQLOperationFile: Sendable {
    /// The operation it answers (`GetFeed`).
    package let operation: String
    /// Relative to the root: `graphql/GetFeed.json`, `scenarios/empty/graphql/GetFeed.json`.
    package let relativePath: String
    package let response: PreparedResponse
}

/// The GraphQL endpoints of a snapshot and the answers by file for their operations. Empty
/// (no endpoint) unless `--graphql` is given; then a request to another path costs one check.
package struct GraphQLTable: Sendable {
    /// Endpoint paths, without a trailing slash.
    let endpoints: Set<String>
    package let reader: (any GraphQLDocumentReader)?
    /// Operation files outside `scenarios/`: operation name → file.
    package let files: [String: GraphQLOperationFile]
    /// Operation files under `scenarios/<name>/`: scenario → operation name → file.
    package let overlays: [String: [String: GraphQLOperationFile]]
    /// The loaded `--graphql-schema`, which answers the operations nothing else does.
    package let schema: (any GraphQLSchemaAnswering)?
    /// The schema file as given, for listings and the origin's label; nil without one.
    package let schemaPath: String?

    package init(
        configuration: GraphQLConfiguration = GraphQLConfiguration(), files: [String: GraphQLOperationFile] = [:],
        overlays: [String: [String: GraphQLOperationFile]] = [:], schema: (any GraphQLSchemaAnswering)? = nil
    ) {
        self.endpoints = Set(configuration.endpoints.map(Self.endpointKey))
        self.reader = configuration.reader
        self.files = files
        self.overlays = overlays
        self.schema = schema
        self.schemaPath = schema == nil ? nil : configuration.schema?.path
    }

    /// No endpoint: nothing is read as GraphQL.
    package var isEmpty: Bool { endpoints.isEmpty }

    /// The endpoints, sorted, for listings and messages.
    package var endpointPaths: [String] { endpoints.sorted() }

    /// Operation files, overlays included.
    package var count: Int { files.count + overlays.values.reduce(0) { $0 + $1.count } }

    /// `request` is read as GraphQL: to an endpoint, with a method GraphQL over HTTP uses.
    func serves(_ request: MockRequest) -> Bool {
        guard request.method == "POST" || request.method == "GET" || request.method == "HEAD" else { return false }
        return endpoints.contains(Self.endpointKey(request.path))
    }

    /// The file answering `operation` in `scenario`'s overlay.
    func overlayFile(_ operation: String, scenario: String) -> GraphQLOperationFile? {
        guard !overlays.isEmpty else { return nil }
        return overlays[scenario]?[operation]
    }

    static func endpointKey(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// `graphql/GetFeed.json` → (`GetFeed`, 200); `graphql/GetFeed.500.json` → (`GetFeed`, 500); nil
    /// for any other path. The folder right above the file is named `graphql`; the name is a
    /// GraphQL name (`[_A-Za-z][_0-9A-Za-z]*`), which has no dot, so a status in it is unambiguous.
    package static func operationFile(_ relativePath: String) -> (operation: String, status: Int, events: Bool)? {
        let parts = relativePath.split(separator: "/")
        guard parts.count >= 2, parts[parts.count - 2] == folder else { return nil }
        // `graphql/OnScore.ws`: a subscription's events, sent over WebSocket (`GraphQLSocket`).
        if parts.last!.hasSuffix(".ws") {
            let stem = parts.last!.dropLast(".ws".count)
            return isName(stem) ? (String(stem), 200, true) : nil
        }
        guard parts.last!.hasSuffix(".json") else { return nil }
        var stem = parts.last!.dropLast(".json".count)
        var status = 200
        if let dot = stem.lastIndex(of: ".") {
            guard let code = Int(stem[stem.index(after: dot)...]), MockFileName.fileStatuses.contains(code),
                stem.distance(from: dot, to: stem.endIndex) == 4
            else { return nil }
            status = code
            stem = stem[..<dot]
        }
        guard isName(stem) else { return nil }
        return (String(stem), status, false)
    }

    /// The folder operation files sit in.
    package static let folder = "graphql"

    /// A GraphQL name: `[_A-Za-z][_0-9A-Za-z]*`.
    static func isName(_ text: some StringProtocol) -> Bool {
        guard let first = text.utf8.first, first == UInt8(ascii: "_") || ASCII.isLetter(first) else { return false }
        return text.utf8.allSatisfy { $0 == UInt8(ascii: "_") || ASCII.isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }
}

extension ASCII {
    static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
