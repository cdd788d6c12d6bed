import MockdCore

/// A `multipart/form-data` (or other `multipart/*`) answer written from a value: each member of
/// an object one part, named in its `Content-Disposition`, between boundaries the Content-Type
/// names. A primitive part is its text (a `format: binary` or base64 string as an example gives
/// it); an object is JSON with its own Content-Type; the media type's `encoding` may name another
/// Content-Type for a member. Written here because the library that reads forms (`FormBody`)
/// only reads them.
struct MultipartBody {
    /// Fixed, so a prepared answer is the same bytes every time; no generated value holds it.
    static let boundary = "mockd-boundary-7MA4YWxkTrZu0gW"

    /// `encoding.<member>.contentType`, by member.
    var partTypes: [String: String] = [:]

    /// `multipart/form-data` → `multipart/form-data; boundary=…` (a boundary already given is kept).
    static func contentType(_ mediaType: String) -> String {
        mediaType.lowercased().contains("boundary=") ? mediaType : mediaType + "; boundary=" + boundary
    }

    static func isMultipart(bare type: String) -> Bool {
        type.hasPrefix("multipart/")
    }

    func body(_ value: JSONValue) -> [UInt8] {
        let members: [(key: String, value: JSONValue)]
        switch value {
        case .object(let all): members = all
        case .null: members = []
        default: members = [("value", value)]
        }
        var text = ""
        for (name, member) in members {
            // An array member is the same name once per item, as forms repeat a field.
            let items: [JSONValue] = if case .array(let list) = member, partTypes[name] == nil { list } else { [member] }
            for item in items {
                text += "--" + Self.boundary + "\r\n"
                text += "Content-Disposition: form-data; name=\"" + Self.quoted(name) + "\"\r\n"
                // OpenAPI's defaults: a primitive is text/plain (no header needed), an object JSON.
                switch item {
                case .object, .array:
                    text += "Content-Type: " + (partTypes[name] ?? "application/json") + "\r\n\r\n" + item.serialized + "\r\n"
                default:
                    if let type = partTypes[name] { text += "Content-Type: " + type + "\r\n" }
                    text += "\r\n" + (item.stringValue ?? item.serialized) + "\r\n"
                }
            }
        }
        text += "--" + Self.boundary + "--\r\n"
        return Array(text.utf8)
    }

    /// A name inside `name="…"`: quotes and line breaks escaped as browsers do.
    private static func quoted(_ name: String) -> String {
        var escaped = ""
        for character in name {
            switch character {
            case "\"": escaped += "%22"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
