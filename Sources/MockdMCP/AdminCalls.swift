import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MCP
import MockdKit

/// The admin API calls the tools make, through MockdKit's client: each answer's JSON as a
/// `Value` to hand on as it is, and each refusal as a `ToolRefusal` with mockd's own message.
struct AdminCalls: Sendable {
    let client: MockdClient

    func get(_ path: String, query: [URLQueryItem] = [], timeout: TimeInterval? = nil) async throws(ToolRefusal) -> Value {
        try await call("GET", path, query: query, timeout: timeout)
    }

    func call(
        _ method: String, _ path: String, query: [URLQueryItem] = [], json: Value? = nil, timeout: TimeInterval? = nil
    ) async throws(ToolRefusal) -> Value {
        let data: Data
        do {
            let body = try json.map { value in try JSONEncoder().encode(value) }
            data = try await client.send(method, path, query: query, body: body, timeout: timeout)
        } catch let error as MockdError {
            throw Self.refusal(error)
        } catch {
            throw ToolRefusal("\(method) \(path): \(error.localizedDescription)")
        }
        if data.isEmpty { return .object([:]) }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            return .string(String(decoding: data, as: UTF8.self))
        }
    }

    /// mockd's message for an error answer (`unknown scenario "x"`, with the known ones where the
    /// body lists them), else what went wrong on the way.
    static func refusal(_ error: MockdError) -> ToolRefusal {
        switch error {
        case .http(let status, let message, let body):
            // Known scenarios, the file that answers already: the fields that let an agent retry.
            let details =
                (try? JSONDecoder().decode([String: Value].self, from: Data(body.utf8)))
                .map { fields in fields.filter { $0.key != "error" && $0.key != "errors" } } ?? [:]
            let extra =
                details.isEmpty ? "" : " " + String(decoding: (try? Self.compact.encode(Value.object(details))) ?? Data(), as: UTF8.self)
            return ToolRefusal("mockd answered \(status): \(message)\(extra)")
        default:
            return ToolRefusal(error.description)
        }
    }

    static let compact: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// One request to a session's base URL, as an app would send it, with the answer as it came:
    /// for `explain_request`, which reads the `X-Mockd-Source` header or the 404's JSON report.
    func send(
        to baseURL: URL, method: String, path: String, headers: [String: String], body: String?
    ) async throws(ToolRefusal) -> (status: Int, headers: [String: String], body: Data) {
        guard let url = URL(string: baseURL.absoluteString.trimmingSuffix("/") + path) else {
            throw ToolRefusal("\"path\" \(path) does not make a URL with \(baseURL.absoluteString)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body.utf8) }
        request.timeoutInterval = 30
        do {
            let (data, response) = try await client.urlSession.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw ToolRefusal("\(method) \(path): not an HTTP response") }
            var fields: [String: String] = [:]
            for (key, value) in http.allHeaderFields {
                if let name = key.base as? String, let text = value as? String { fields[name.lowercased()] = text }
            }
            return (http.statusCode, fields, data)
        } catch let refusal as ToolRefusal {
            throw refusal
        } catch {
            throw ToolRefusal("\(method) \(url.absoluteString): \(error.localizedDescription)")
        }
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
