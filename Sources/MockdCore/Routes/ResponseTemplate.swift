#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
import Mustache
import MockdLock
import Synchronization

/// A `template: true` body: parsed once at load, rendered per request over
/// `path.<param>`, `query.<name>`, `headers.<name>`, `json.<field>`, `variables.<name>` (a GraphQL
/// request's), `now`, `uuid`.
package struct ResponseTemplate: Sendable {
    let template: MustacheTemplate
    package let status: Int
    package let headers: [HTTPHeader]
    package let origin: Origin
    /// The template as written, for the dashboard.
    package let text: String

    /// Parses `text`; values are escaped for JSON strings when the body is JSON, left alone otherwise.
    init(text: String, json: Bool, status: Int, headers: [HTTPHeader], origin: Origin) throws {
        template = try Self.parse(text, json: json)
        self.status = status
        self.headers = headers
        self.origin = origin
        self.text = text
    }

    package func render(request: MockRequest, parameters: [String: String]) -> BuiltResponse {
        let body = template.render(Self.context(request: request, parameters: parameters))
        return BuiltResponse(status: status, headers: headers, body: Array(body.utf8), origin: origin)
    }

    /// `text` parsed once; values are escaped for JSON strings when `json`, left alone otherwise.
    /// WebSocket messages (`MessageTemplate`) are parsed the same way.
    static func parse(_ text: String, json: Bool) throws -> MustacheTemplate {
        JSONStringContentType.registerOnce()
        let pragma = json ? "{{% CONTENT_TYPE: JSON_STRING }}" : "{{% CONTENT_TYPE: TEXT }}"
        return try MustacheTemplate(string: pragma + text)
    }

    /// A request's query as templates read it: the first value of each name.
    static func queryValues(_ request: MockRequest) -> [String: String] {
        var query: [String: String] = [:]
        for argument in request.query where query[argument.name] == nil { query[argument.name] = argument.value ?? "" }
        return query
    }

    /// A request's headers as templates read them: by the name as sent and in lower case.
    static func headerValues(_ request: MockRequest) -> [String: String] {
        var headers: [String: String] = [:]
        for header in request.headers {
            headers[header.name] = header.value
            headers[header.name.lowercased()] = header.value
        }
        return headers
    }

    /// What a template can name. Header names are there as sent and in lower case.
    static func context(request: MockRequest, parameters: [String: String]) -> [String: Any] {
        let query = queryValues(request), headers = headerValues(request)
        var json: Any = [String: Any]()
        var parsed: JSONValue?
        if !request.body.isEmpty, let value = try? JSONParser.parse(request.body) {
            json = value.mustacheValue
            parsed = value
        }
        // A GraphQL request's variables: the body's `variables`, or a GET's `variables` item.
        var variables: Any = [String: Any]()
        if let value = parsed?["variables"], value.isObject {
            variables = value.mustacheValue
        } else if let text = query["variables"], let value = try? JSONParser.parse(text), value.isObject {
            variables = value.mustacheValue
        }
        return [
            "path": parameters,
            "variables": variables,
            "query": query,
            "headers": headers,
            "json": json,
            "now": Date.now.formatted(.iso8601),
            "uuid": UUID().uuidString.lowercased(),
        ]
    }
}

extension JSONValue {
    /// Dictionaries, arrays and strings, as Mustache reads them.
    var mustacheValue: Any {
        switch self {
        case .null: return ""
        case .bool(let value): return value
        case .number(let text): return text
        case .string(let text): return text
        case .array(let items): return items.map(\.mustacheValue)
        case .object(let members):
            var dictionary: [String: Any] = [:]
            for member in members { dictionary[member.key] = member.value.mustacheValue }
            return dictionary
        }
    }
}

/// Escapes values so they can sit inside a JSON string: `{"name": "{{json.name}}"}` stays valid
/// JSON whatever the name is (Mustache's default would HTML-escape it instead).
struct JSONStringContentType: MustacheContentType {
    func escapeText(_ text: String) -> String {
        String(JSONText.quoted(text).dropFirst().dropLast())
    }

    private static let registered = Lock(false)

    static func registerOnce() {
        registered.withLock { done in
            guard !done else { return }
            MustacheContentTypes.register(JSONStringContentType(), named: "JSON_STRING")
            done = true
        }
    }
}
