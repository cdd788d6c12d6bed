/// A complete response built once at load time and reused for every request it answers.
public final class PreparedResponse: Sendable {
    /// Position in `Snapshot.preparedResponses`; the adapter keeps its own per-id objects.
    public let id: Int
    public let status: Int
    /// Sent first, when set; nil when `customHeaders` has its own Content-Type.
    public let contentType: String?
    /// Headers a route asked for; empty for mock files (an empty array allocates nothing).
    public let customHeaders: [HTTPHeader]
    public let body: ResponseBody
    /// What answered, as shown in `X-Mockd-Source` and the access log.
    public let source: String

    public init(id: Int, status: Int, contentType: String?, customHeaders: [HTTPHeader], body: ResponseBody, source: String) {
        self.id = id
        self.status = status
        self.contentType = customHeaders.first(named: "Content-Type") == nil ? contentType : nil
        self.customHeaders = customHeaders
        self.body = body
        self.source = source
    }

    /// Every header sent: Content-Type, the custom ones, X-Mockd-Source. Built when asked (once,
    /// by the adapter) rather than stored: 10,000 files would each keep the same two headers.
    public var headers: [HTTPHeader] {
        var all: [HTTPHeader] = []
        all.reserveCapacity(customHeaders.count + 2)
        if let contentType { all.append(HTTPHeader("Content-Type", contentType)) }
        all.append(contentsOf: customHeaders)
        all.append(HTTPHeader("X-Mockd-Source", source))
        return all
    }

    /// The headers of a response built from this one for a single request: the adapter adds
    /// `X-Mockd-Source` from the built response's own source.
    public var headersWithoutSource: [HTTPHeader] {
        var all: [HTTPHeader] = []
        all.reserveCapacity(customHeaders.count + 1)
        if let contentType { all.append(HTTPHeader("Content-Type", contentType)) }
        all.append(contentsOf: customHeaders)
        return all
    }
}

/// A response built for one request (a 404 report, an admin answer, a rendered template).
public struct BuiltResponse: Sendable {
    public var status: Int
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    public var source: String
    /// Set when these bytes answer every request like this one until the next reload (a
    /// cached 404 report): the adapter may build its response once and keep it under this
    /// number (unique per `NotFoundCache`, so per server and snapshot).
    public var reuseID: Int?

    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = [], source: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.source = source
    }

    public static func json(status: Int, _ body: String, source: String) -> BuiltResponse {
        BuiltResponse(status: status, headers: [HTTPHeader("Content-Type", ContentType.json)], body: Array(body.utf8), source: source)
    }
}

public enum ContentType {
    public static let json = "application/json; charset=utf-8"
    public static let text = "text/plain; charset=utf-8"
}
