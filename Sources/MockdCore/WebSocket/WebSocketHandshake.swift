#if canImport(FoundationEssentials)
    import FoundationEssentials  // base64
#else
    import Foundation
#endif

/// The opening handshake's server side (RFC 6455, section 4.2): whether an upgrade request can be
/// taken, and the 101 head that takes it, or the JSON refusal that says what is missing.
package enum WebSocketHandshake {
    /// The one version of the protocol there is (13); others get 426 naming it.
    package static let version = "13"
    private static let acceptSuffix = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`.
    package static func accept(key: String) -> String {
        Data(SHA1.digest(Array((key + acceptSuffix).utf8))).base64EncodedString()
    }

    package enum Outcome: Sendable {
        case accepted(BuiltResponse)
        case refused(BuiltResponse)
    }

    /// The 101 head for `request` on a route that speaks `subprotocols` (any, when empty), or the
    /// refusal: 426 for a plain request or another version, 400 for a broken or unfit upgrade.
    package static func answer(_ request: MockRequest, subprotocols: [String], origin: Origin) -> Outcome {
        let upgrade = tokens(request, "Upgrade")
        guard upgrade.contains("websocket") else {
            return .refused(
                refusal(
                    426,
                    "\(request.path) is a WebSocket endpoint: connect with a WebSocket client (GET with Upgrade: websocket, Connection: Upgrade, Sec-WebSocket-Version: 13)",
                    origin: origin))
        }
        let version = request.headers.first(named: "Sec-WebSocket-Version").map { String(Substring($0).trimming(.whitespace)) } ?? ""
        guard version == Self.version else {
            let found = version.isEmpty ? "none" : JSONText.quoted(version)
            return .refused(refusal(426, "unsupported Sec-WebSocket-Version \(found): mockd speaks version 13", origin: origin))
        }
        guard tokens(request, "Connection").contains("upgrade") else {
            return .refused(refusal(400, "a WebSocket upgrade needs Connection: Upgrade", origin: origin))
        }
        guard let key = request.headers.first(named: "Sec-WebSocket-Key").map({ String(Substring($0).trimming(.whitespace)) }),
            Data(base64Encoded: key)?.count == 16
        else {
            return .refused(refusal(400, "a WebSocket upgrade needs Sec-WebSocket-Key: 16 random bytes in base64", origin: origin))
        }
        var headers = [HTTPHeader("Upgrade", "websocket"), HTTPHeader("Sec-WebSocket-Accept", accept(key: key))]
        if !subprotocols.isEmpty {
            let offered = offeredSubprotocols(request)
            guard let chosen = offered.first(where: subprotocols.contains) else {
                let asked = offered.isEmpty ? "none" : offered.joined(separator: ", ")
                return .refused(
                    refusal(
                        400,
                        "no subprotocol in common: the client offers \(asked); this route speaks \(subprotocols.joined(separator: ", "))",
                        origin: origin))
            }
            headers.append(HTTPHeader("Sec-WebSocket-Protocol", chosen))
        }
        return .accepted(BuiltResponse(status: 101, headers: headers, origin: origin))
    }

    /// Whether `request` asks to become a WebSocket (a GET with `Upgrade: websocket`).
    static func asksForUpgrade(_ request: MockRequest) -> Bool {
        request.method == "GET" && tokens(request, "Upgrade").contains("websocket")
    }

    /// The subprotocols the client offers, in its order of preference.
    static func offeredSubprotocols(_ request: MockRequest) -> [String] {
        request.headers.filter { HTTPHeader.namesEqual($0.name, "Sec-WebSocket-Protocol") }
            .flatMap { $0.value.split(separator: ",").map { String($0.trimming(.whitespace)) } }
    }

    /// The comma-separated tokens of every `name` header, in lower case.
    private static func tokens(_ request: MockRequest, _ name: String) -> [String] {
        request.headers.filter { HTTPHeader.namesEqual($0.name, name) }
            .flatMap { $0.value.split(separator: ",").map { $0.trimming(.whitespace).lowercased() } }
    }

    /// A 426 says what to upgrade to, as HTTP asks of it.
    private static func refusal(_ status: Int, _ message: String, origin: Origin) -> BuiltResponse {
        let headers = status == 426 ? [HTTPHeader("Upgrade", "websocket"), HTTPHeader("Sec-WebSocket-Version", version)] : []
        return ErrorAnswer(status, message, headers: headers).response(origin: origin, layout: .compact)
    }
}
