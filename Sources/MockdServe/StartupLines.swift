import MockdCore

/// What `serve` prints on stdout once it listens: a line scripts read for the port. Plain text,
/// or with `--log-format json` one JSON object, like every other line mockd writes then.
enum StartupLines {
    /// `rootPath` and `routesPath` (absolute; nil: no routes) tell two mockds on two ports apart.
    static func listening(
        urls: [String], files: Int, routes: Int, operations: OperationTable = OperationTable(), scenario: String,
        rootPath: String, routesPath: String?, json: Bool
    ) -> String {
        guard json else {
            return
                "mockd listening on \(urls.joined(separator: " and ")) (\(Counted.text(files, "file")), \(Counted.text(routes, "route"))"
                + "\(OperationDescription.summary(operations)), scenario \(scenario))"
                + " from \(rootPath), \(routesPath.map { "routes \($0)" } ?? "no routes")"
        }
        let list = urls.map { JSONText.quoted($0) }.joined(separator: ",")
        let counted = operations.documents.isEmpty ? "" : #","operations":\#(operations.operations.count)"#
        let folders = #","root":\#(JSONText.quoted(rootPath)),"routesFolder":\#(routesPath.map(JSONText.quoted) ?? "null")"#
        return
            #"{"message":"listening","urls":[\#(list)],"files":\#(files),"routes":\#(routes)\#(counted),"scenario":\#(JSONText.quoted(scenario))\#(folders)}"#
    }

    /// `--graphql`: the endpoints, how many operations files answer, and the schema that answers the rest.
    static func graphQL(endpoints: [String], files: Int, schema: String?, json: Bool) -> String {
        guard json else {
            let rest = schema.map { "; the schema \($0) answers the other operations" } ?? ""
            return "mockd reads GraphQL at \(endpoints.joined(separator: ", ")) (\(Counted.text(files, "operation file"))\(rest))"
        }
        let list = endpoints.map { JSONText.quoted($0) }.joined(separator: ",")
        let schemaMember = schema.map { #","schema":\#(JSONText.quoted($0))"# } ?? ""
        return #"{"message":"graphql","endpoints":[\#(list)],"operationFiles":\#(files)\#(schemaMember)}"#
    }

    /// `--contract`: the documents mocks (and with `--proxy` the upstream's answers) are held to.
    static func contracts(documents: [String], operations: Int, upstream: Bool, json: Bool) -> String {
        guard json else {
            return "mockd holds mocks\(upstream ? " and the upstream's answers" : "") to the contract \(documents.joined(separator: ", "))"
                + " (\(Counted.text(operations, "operation")))"
        }
        let list = documents.map { JSONText.quoted($0) }.joined(separator: ",")
        return #"{"message":"contract","documents":[\#(list)],"operations":\#(operations),"upstream":\#(upstream)}"#
    }

    static func proxying(upstream: String, recordingInto: (root: String, routesFile: String)?, json: Bool) -> String {
        guard json else {
            return "mockd proxies what nothing matches to \(upstream)"
                + (recordingInto.map { " and records answers into \($0.root) and \($0.routesFile)" } ?? "")
        }
        var line = #"{"message":"proxying","upstream":\#(JSONText.quoted(upstream))"#
        if let recordingInto {
            line +=
                #","recordInto":\#(JSONText.quoted(recordingInto.root)),"recordRoutesInto":\#(JSONText.quoted(recordingInto.routesFile))"#
        }
        return line + "}"
    }
}
