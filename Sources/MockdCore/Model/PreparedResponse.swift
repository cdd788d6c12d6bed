/// A complete response built once at load time and reused for every request it answers.
package final class PreparedResponse: Sendable {
    /// Position in `Snapshot.preparedResponses`; the adapter keeps its own per-id objects.
    package let id: Int
    package let status: Int
    /// Sent first, when set; nil when `customHeaders` has its own Content-Type.
    package let contentType: String?
    /// Headers a route asked for; empty for mock files (an empty array allocates nothing).
    package let customHeaders: [HTTPHeader]
    package let body: ResponseBody
    /// What answered.
    package let origin: Origin
    /// `origin`'s label, as shown in `X-Mockd-Source` and the access log: made once, at load.
    package let source: String
    /// A `mock_<path>_<method>.sse` file: its events, sent as a stream (`body` holds them all, for listings).
    package let stream: ResponseStream?
    /// A `mock_<path>_get.ws` file: the conversation held with each connection it upgrades.
    package let conversation: WebSocketFileConversation?

    package init(
        id: Int, status: Int, contentType: String?, customHeaders: [HTTPHeader], body: ResponseBody, origin: Origin,
        stream: ResponseStream? = nil, conversation: WebSocketFileConversation? = nil
    ) {
        self.stream = stream
        self.conversation = conversation
        self.id = id
        self.status = status
        self.contentType = customHeaders.first(named: "Content-Type") == nil ? contentType : nil
        self.customHeaders = customHeaders
        self.body = body
        self.origin = origin
        self.source = origin.label
    }

    /// Every header sent: Content-Type, the custom ones, X-Mockd-Source. Built when asked (once,
    /// by the adapter) rather than stored: 10,000 files would each keep the same two headers.
    package var headers: [HTTPHeader] {
        var all: [HTTPHeader] = []
        all.reserveCapacity(customHeaders.count + 2)
        if let contentType { all.append(HTTPHeader("Content-Type", contentType)) }
        all.append(contentsOf: customHeaders)
        all.append(HTTPHeader("X-Mockd-Source", source))
        return all
    }

    /// The headers of a response built from this one for a single request: the adapter adds
    /// `X-Mockd-Source` from the built response's own source.
    var headersWithoutSource: [HTTPHeader] {
        var all: [HTTPHeader] = []
        all.reserveCapacity(customHeaders.count + 1)
        if let contentType { all.append(HTTPHeader("Content-Type", contentType)) }
        all.append(contentsOf: customHeaders)
        return all
    }
}

/// A response built for one request (a 404 report, an admin answer, a rendered template).
package struct BuiltResponse: Sendable {
    package var status: Int
    package var headers: [HTTPHeader]
    package var body: [UInt8]
    /// What answered.
    package var origin: Origin
    /// Set when these bytes answer every request like this one until the next reload (a
    /// cached 404 report): the adapter may build its response once and keep it under this
    /// number (unique per `NotFoundCache`, so per server and snapshot).
    package var reuseID: Int?

    package init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = [], origin: Origin) {
        self.status = status
        self.headers = headers
        self.body = body
        self.origin = origin
    }

    /// `origin`'s label, as `X-Mockd-Source` and the access log show it.
    package var source: String { origin.label }

    /// `prepared` as a response of this request's own (to add a header, to change the status,
    /// or because it is not among the snapshot's prepared responses); the adapter adds
    /// `X-Mockd-Source` from `source`.
    package init(copying prepared: PreparedResponse, status: Int? = nil) {
        self.init(
            status: status ?? prepared.status, headers: prepared.headersWithoutSource, body: prepared.body.array, origin: prepared.origin)
    }

    package static func json(status: Int, _ body: String, origin: Origin) -> BuiltResponse {
        BuiltResponse(status: status, headers: [HTTPHeader("Content-Type", ContentType.json)], body: Array(body.utf8), origin: origin)
    }
}

package enum ContentType {
    package static let json = "application/json; charset=utf-8"
    package static let text = "text/plain; charset=utf-8"
}
