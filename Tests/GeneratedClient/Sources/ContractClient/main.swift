// Calls every operation of openapi.yaml on the mockd at MOCKD_URL and decodes each answer with
// the generated types; one line per operation, exit 1 if any failed.
import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let url = URL(string: ProcessInfo.processInfo.environment["MOCKD_URL"] ?? "http://127.0.0.1:8080")!
let client = Client(serverURL: url, transport: URLSessionTransport())
var results: [Bool] = []

func check(_ name: String, _ body: () async throws -> String) async -> Bool {
    do {
        print("ok   \(name): \(try await body())")
        return true
    } catch {
        print("FAIL \(name): \(error)")
        return false
    }
}

results.append(
    await check("getAccount") {
        let account = try await client.getAccount(path: .init(id: "a1")).ok.body.json
        return "\(account.value2.kind) \(account.value2.status) \(account.value1.created)"
    })
results.append(
    await check("listAccounts") {
        let list = try await client.listAccounts(query: .init(limit: 100)).ok.body.json
        return "\(list.items.count) accounts, total \(list.total)"
    })
results.append(
    await check("getAvatar") {
        let avatar = try await client.getAvatar().ok.body.json
        return "\(Array(avatar.image.data).count) bytes"
    })
results.append(
    await check("streamEvents") {
        let body = try await client.streamEvents().ok.body.text_event_hyphen_stream
        var events: [Components.Schemas.Event] = []
        for try await event in body.asDecodedServerSentEventsWithJSONData(of: Components.Schemas.Event.self) {
            if let data = event.data { events.append(data) }
        }
        guard !events.isEmpty else { throw CocoaError(.coderValueNotFound) }
        return "\(events.count) events: \(events.map(\._type.rawValue))"
    })
results.append(
    await check("getForm") {
        let form = try await client.getForm().ok.body.multipartForm
        var names: [String] = []
        for try await part in form {
            switch part {
            case .name(let name): names.append("name=" + (try await String(collecting: name.payload.body, upTo: 1024)))
            case .size(let size): names.append("size=" + (try await String(collecting: size.payload.body, upTo: 1024)))
            case .undocumented: names.append("undocumented")
            }
        }
        return names.joined(separator: " ")
    })
let failures = results.filter { !$0 }.count
print("\(failures) failed")
exit(failures == 0 ? 0 : 1)
