#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
import Mustache

/// A `pushes/<name>.apns` file: a notification in the form `xcrun simctl push` reads (`aps` with
/// `alert`, `badge`, `sound`, `content-available`, `interruption-level`, custom keys), checked to
/// be a JSON object at load and parsed once as a template. Tags sit inside JSON strings (the file
/// must be valid JSON as written), and values are escaped for them, so what is sent stays JSON.
package struct PushPayload: Sendable {
    /// The file's name without `.apns`: what a test or a route asks for.
    package let name: String
    /// Relative to the root (`pushes/new-message.apns`, `scenarios/outage/pushes/new-message.apns`).
    package let relativePath: String
    /// The file's `"Simulator Target Bundle"`: the app it goes to when the sender names none.
    package let bundleID: String?
    let template: MustacheTemplate

    /// The file's text checked and parsed, or why it cannot be a payload.
    static func load(name: String, relativePath: String, bytes: [UInt8]) -> Result<PushPayload, PushPayloadProblem> {
        if let problem = JSONParser.validate(bytes) {
            return .failure(PushPayloadProblem(location: problem.location, message: "invalid JSON: \(problem.message)"))
        }
        guard let value = try? JSONParser.parse(bytes), case .object = value else {
            return .failure(
                PushPayloadProblem(message: #"a push payload is a JSON object, like {"aps": {"alert": {"title": "Hi", "body": "…"}}}"#))
        }
        let template: MustacheTemplate
        do {
            template = try ResponseTemplate.parse(String(decoding: bytes, as: UTF8.self), json: true)
        } catch {
            return .failure(PushPayloadProblem(message: "not a template: \(error)"))
        }
        var bundleID: String?
        if case .string(let text)? = value[PushPayload.bundleKey], !text.isEmpty { bundleID = text }
        return .success(PushPayload(name: name, relativePath: relativePath, bundleID: bundleID, template: template))
    }

    /// The key of an `.apns` file that names the app it is for.
    package static let bundleKey = "Simulator Target Bundle"

    /// The payload as sent: the template rendered over `values` (a route's request, or only `now`
    /// and `uuid` for a test's push).
    func render(_ values: [String: Any]) -> [UInt8] {
        Array(template.render(values).utf8)
    }

    /// What a push a test asks for can name: the time and a fresh id.
    static func clockValues() -> [String: Any] {
        ["now": Date.now.formatted(.iso8601), "uuid": UUID().uuidString.lowercased()]
    }
}

/// Why a `.apns` file is not a payload: the place in it (`line 3, column 7`) and what is wrong.
struct PushPayloadProblem: Error {
    var location: String?
    var message: String
}
