/// An upgrade nothing here answers while `--proxy` is on: the upstream holds the conversation,
/// and mockd relays it both ways, journaling every message. The core says what goes upstream and
/// what the app gets back; the adapter opens the upstream connection and moves the messages.
package struct WebSocketRelay: Sendable {
    /// The upgrade request's headers for the upstream: all of the app's but
    /// `Sec-WebSocket-Extensions` (mockd reads every message, so it agrees to no compression).
    /// The proxy leaves out what it leaves out of every request it forwards (`Host`, mockd's own).
    package let headers: [HTTPHeader]
    package let session: String?
    package let path: String
    package let scenario: String
    /// What the upstream's `Sec-WebSocket-Accept` must say: the app checks the same value.
    let accept: String
    /// The subprotocols the app offered, in its order.
    let offered: [String]

    /// The relay of `request`, or the refusal when it is not a WebSocket upgrade mockd can relay
    /// (426 for another version, 400 for a broken handshake), decided as for a route's upgrade.
    static func relay(_ request: MockRequest, scenario: String) -> Resolution {
        switch WebSocketHandshake.answer(request, subprotocols: [], origin: .proxy(note: "")) {
        case .refused(let refusal):
            return .respond(Reply(.built(refusal), scenario: scenario))
        case .accepted(let head):
            let relay = WebSocketRelay(
                headers: request.headers.filter { !HTTPHeader.namesEqual($0.name, "Sec-WebSocket-Extensions") },
                session: request.session, path: request.path, scenario: scenario,
                accept: head.headers.first(named: "Sec-WebSocket-Accept") ?? "",
                offered: WebSocketHandshake.offeredSubprotocols(request))
            return .relay(relay)
        }
    }

    /// What the app gets once the upstream answered the upgrade: the 101 and the relayed
    /// conversation, the upstream's other answer as it came (a 401, a 404…), or a 502 when the
    /// upstream's 101 breaks the handshake. `headers`: the upstream's, as the proxy relays
    /// headers (hop-by-hop ones and its `X-Mockd-Source` removed).
    package func answer(status: Int, headers: [HTTPHeader], body: [UInt8], note: String) -> Resolution {
        let origin = Origin.proxy(note: note)
        guard status == 101 else {
            return .respond(Reply(.built(BuiltResponse(status: status, headers: headers, body: body, origin: origin)), scenario: scenario))
        }
        if let problem = problem(with: headers) {
            let refusal = ErrorAnswer(502, "the upstream's answer to the WebSocket upgrade \(problem)")
                .response(origin: .proxyFailure(note: note), layout: .compact)
            return .respond(Reply(.built(refusal), scenario: scenario))
        }
        let head = BuiltResponse(status: 101, headers: [HTTPHeader("Upgrade", "websocket")] + headers, origin: origin)
        return .upgrade(WebSocketUpgrade(head: head, peer: .upstream, session: session, path: path, scenario: scenario))
    }

    /// What is wrong with the upstream's 101, in words, or nil.
    private func problem(with headers: [HTTPHeader]) -> String? {
        let accepted = headers.first(named: "Sec-WebSocket-Accept").map { String(Substring($0).trimming(.whitespace)) }
        guard accepted == accept else {
            return "has Sec-WebSocket-Accept \(accepted.map(JSONText.quoted) ?? "missing") where \(JSONText.quoted(accept)) is due"
        }
        if let chosen = headers.first(named: "Sec-WebSocket-Protocol").map({ String(Substring($0).trimming(.whitespace)) }),
            !offered.contains(chosen)
        {
            return "chose the subprotocol \(JSONText.quoted(chosen)), which the app did not offer"
        }
        if let extensions = headers.first(named: "Sec-WebSocket-Extensions") {
            return "agreed to extensions nobody offered (\(extensions))"
        }
        return nil
    }
}
