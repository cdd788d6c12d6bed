#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Logging
import MockdCore

/// The fields of one access-log line.
package struct AccessRecord: CustomStringConvertible, Sendable {
    package static let metadataKey = "mockd.request"
    package var method: String
    package var path: String
    package var status: Int
    package var source: String
    /// The source is the status itself (the 404 report, the 501): said once, not `404 404`.
    package var repeatsStatus: Bool
    package var durationMicroseconds: UInt64
    /// The raw query, without `?`; empty when there was none.
    package var query: String = ""
    /// The scenario the request was answered in; `default` (or empty) is not shown.
    package var scenario: String = ""
    /// `X-Mock-Session`, when sent.
    package var session: String?

    package init(
        method: String, path: String, status: Int, source: String, repeatsStatus: Bool = false, durationMicroseconds: UInt64,
        query: String = "", scenario: String = "", session: String? = nil
    ) {
        self.repeatsStatus = repeatsStatus
        self.method = method
        self.path = path
        self.status = status
        self.source = source
        self.durationMicroseconds = durationMicroseconds
        self.query = query
        self.scenario = scenario
        self.session = session
    }

    /// Shown only when it says something: not the default scenario.
    var shownScenario: String? { Self.shown(scenario) }

    static func shown(_ scenario: String) -> String? { scenario.isEmpty || scenario == "default" ? nil : scenario }

    /// `GET /api/users?page=2 200 file users/mock_api_users_get.json 0.080ms scenario=empty session=sim-3`
    package var description: String {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same as `description`, appended as bytes.
    func append(to buffer: inout [UInt8]) {
        LineBuilder.build(maximumLength: maximumLength, { put(into: &$0) }, then: { buffer.append(contentsOf: $0) })
    }

    /// At least the length of the line `put(into:)` writes.
    var maximumLength: Int {
        Self.maximumLength(method: method, path: path, query: query, source: source, scenario: scenario, session: session)
    }

    func put(into line: inout LineBuilder) {
        Self.put(
            method: method, path: path, query: query, status: status, source: source, repeatsStatus: repeatsStatus,
            durationMicroseconds: durationMicroseconds, scenario: scenario, session: session, into: &line)
    }

    /// At least the length of the line `put` writes: the fields' bytes and room for the
    /// separators, labels and numbers.
    static func maximumLength(method: String, path: String, query: String, source: String, scenario: String, session: String?) -> Int {
        method.utf8.count + path.utf8.count + query.utf8.count + source.utf8.count
            + scenario.utf8.count + (session?.utf8.count ?? 0) + 96
    }

    /// The line from fields borrowed where they are, so that the access log's fast path
    /// (`AccessLogWriter.writeLine`) needs no record of its own.
    static func put(
        method: String, path: String, query: String, status: Int, source: String, repeatsStatus: Bool, durationMicroseconds: UInt64,
        scenario: String, session: String?, into line: inout LineBuilder
    ) {
        line.put(method)
        line.put(UInt8(ascii: " "))
        line.put(path)
        if !query.isEmpty {
            line.put(UInt8(ascii: "?"))
            line.put(query)
        }
        line.put(UInt8(ascii: " "))
        Digits.put(UInt64(max(0, status)), into: &line)
        line.put(UInt8(ascii: " "))
        if !repeatsStatus {
            line.put(source)
            line.put(UInt8(ascii: " "))
        }
        Digits.putMilliseconds(durationMicroseconds, into: &line)
        line.put("ms" as StaticString)
        if let shown = shown(scenario) {
            line.put(" scenario=" as StaticString)
            line.put(shown)
        }
        if let session {
            line.put(" session=" as StaticString)
            line.put(session)
        }
    }

    /// `,"method":"GET","path":…,"durationMs":0.08`
    var jsonFields: String {
        var fields = ",\"method\":\(JSONText.quoted(method)),\"path\":\(JSONText.quoted(path))"
        if !query.isEmpty { fields += ",\"query\":\(JSONText.quoted(query))" }
        fields += ",\"status\":\(status),\"source\":\(JSONText.quoted(source)),\"durationMs\":\(Digits.milliseconds(durationMicroseconds))"
        if let shownScenario { fields += ",\"scenario\":\(JSONText.quoted(shownScenario))" }
        if let session { fields += ",\"session\":\(JSONText.quoted(session))" }
        return fields
    }
}
