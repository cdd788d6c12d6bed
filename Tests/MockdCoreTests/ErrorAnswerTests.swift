@testable import MockdCore
import Testing

/// One value renders every refusal: `{"error": message}` and then its details in the order
/// given, on one line or indented, with the refusal's own headers after `Content-Type`.
@Suite struct ErrorAnswerTests {
    static func text(_ response: BuiltResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    static func headers(_ response: BuiltResponse) -> [String] { response.headers.map { "\($0.name): \($0.value)" } }

    // MARK: - rendering

    @Test func compact_IsOneLine_ErrorFirst_DetailsInTheOrderGiven() {
        let error = ErrorAnswer(404, "no \"7\"", details: [("resource", "/api/notes"), ("id", "7"), ("known", ["a", "b"])])
        #expect(error.body(.compact) == #"{"error":"no \"7\"","resource":"/api/notes","id":"7","known":["a","b"]}"# + "\n")
    }

    @Test func pretty_IsIndentedForPeople() {
        let error = ErrorAnswer(400, "unknown scenario \"x\"", details: [("known", ["default"])])
        #expect(error.body(.pretty) == "{\n  \"error\": \"unknown scenario \\\"x\\\"\",\n  \"known\": [\n    \"default\"\n  ]\n}\n")
    }

    @Test func response_ContentTypeThenTheSendersHeadersThenTheRefusalsOwn() {
        let error = ErrorAnswer(405, "no", headers: [HTTPHeader("Allow", "GET")])
        let response = error.response(origin: .admin, layout: .compact, leading: [HTTPHeader("Cache-Control", "no-store")])
        #expect(response.status == 405)
        #expect(response.origin == .admin)
        #expect(Self.headers(response) == ["Content-Type: \(ContentType.json)", "Cache-Control: no-store", "Allow: GET"])
        #expect(Self.text(response) == #"{"error":"no"}"# + "\n")
    }

    @Test func aMessageIsEscapedAsJSON() {
        let error = ErrorAnswer(400, "a \\ b\n\t\u{1}")
        #expect(error.body(.compact) == #"{"error":"a \\ b\n\t\u0001"}"# + "\n")
    }

    // MARK: - the adapter's refusals, as they were written by hand

    @Test(arguments: [
        (
            ErrorAnswer.unreadable(status: 400, reason: "the request has both Content-Length and Transfer-Encoding; send one"),
            400, #"{"error":"the request has both Content-Length and Transfer-Encoding; send one"}"#, ["Connection: close"]
        ),
        (
            ErrorAnswer.unreadable(status: 413, reason: "the body is 2000 bytes; the limit is 1000 (--max-body-bytes)"),
            413, #"{"error":"the body is 2000 bytes; the limit is 1000 (--max-body-bytes)"}"#, ["Connection: close"]
        ),
        (
            ErrorAnswer.bodyMemoryFull(limit: 1_048_576), 503,
            #"{"error":"request bodies in memory are at the limit (1048576 bytes, --max-body-memory); try again shortly"}"#,
            ["Retry-After: 1", "Connection: close"]
        ),
        (
            ErrorAnswer.tooManyParked(limit: 10_000), 503,
            #"{"error":"too many parked requests (--max-parked 10000): delays, timeout faults and upstream calls wait in parallel up to that limit"}"#,
            []
        ),
        (ErrorAnswer.stopping, 503, #"{"error":"mockd is stopping"}"#, ["Connection: close"]),
        (ErrorAnswer.headTimeout(seconds: 30), 408, #"{"error":"the request head did not arrive within 30 s (--head-timeout)"}"#, []),
        (
            ErrorAnswer.evictedForRoom, 408,
            #"{"error":"the connection was closed to make room for a new one (--max-connections) before its request head had all arrived"}"#,
            []
        ),
        (
            ErrorAnswer.slowBody(bytesPerSecond: 1024, windowSeconds: 10), 408,
            #"{"error":"the request body came slower than 1024 bytes/s over 10 s (--min-body-rate)"}"#, []
        ),
    ])
    func adapterRefusal_RendersAsBefore(error: ErrorAnswer, status: Int, body: String, headers: [String]) {
        let response = error.response(origin: .refusal(""), layout: .compact)
        #expect(response.status == status)
        #expect(Self.text(response) == body + "\n")
        #expect(Self.headers(response) == ["Content-Type: \(ContentType.json)"] + headers)
    }

    // MARK: - the core's refusals, through the code that sends them

    @Test func adminToken_401RendersAsBefore() throws {
        let response = try #require(
            AdminAccess(token: "t").refusal(.make(path: "/__mockd/requests"), isPage: false))
        #expect(response.status == 401)
        #expect(response.origin == .admin)
        #expect(Self.text(response) == #"{"error":"the admin API needs Authorization: Bearer <token> (--admin-token)"}"# + "\n")
        #expect(Self.headers(response) == ["Content-Type: \(ContentType.json)", #"WWW-Authenticate: Bearer realm="mockd admin""#])
    }

    @Test func adminHost_403RendersAsBefore() throws {
        let request = MockRequest(method: "GET", path: "/__mockd/requests", headers: [HTTPHeader("Host", "evil.example:8080")])
        let response = try #require(AdminAccess().refusal(request, isPage: false))
        #expect(response.status == 403)
        #expect(response.origin == .admin)
        #expect(
            Self.text(response)
                == #"{"error":"the admin API does not answer requests for Host evil.example:8080 (a web page could be reading it through DNS rebinding); allow the name with --allowed-hosts evil.example (env MOCKD_ALLOWED_HOSTS)"}"#
                + "\n")
        #expect(Self.headers(response) == ["Content-Type: \(ContentType.json)"])
    }

    @Test func adminWithoutHost_403SaysToNameIt() throws {
        let response = try #require(AdminAccess().refusal(MockRequest(method: "GET", path: "/__mockd/requests"), isPage: false))
        #expect(response.status == 403)
        #expect(
            Self.text(response)
                == #"{"error":"the admin API answers only requests that name their Host (it guards against DNS rebinding by that name); send Host: 127.0.0.1, as HTTP/1.1 requires and curl does"}"#
                + "\n")
    }

    @Test func unknownMethod_501RendersAsBefore() throws {
        try withSnapshot(["mock_api_teams_get.json": "[]"]) { snapshot, _ in
            let answer = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(.make(method: "BREW", path: "/api/teams"))
            let built = try #require(answer.reply?.builtResponse)
            #expect(built.origin == .unknownMethod)
            #expect(
                Self.text(built)
                    == #"{"error":"no route answers BREW /api/teams; files only serve GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, TRACE, CONNECT, so add a route with \"method\": \"BREW\" or \"*\""}"#
                    + "\n")
            #expect(Self.headers(built) == ["Content-Type: \(ContentType.json)"])
        }
    }

    /// The admin API's refusals: indented, never cached, with their own headers last.
    @Test(arguments: [
        (
            "GET", "/__mockd/events?after=0&wiat=5", "", 400,
            "{\n  \"error\": \"unknown query argument \\\"wiat\\\"; did you mean \\\"wait\\\"?\",\n  \"known\": [\n    \"after\",\n    \"state\",\n    \"wait\"\n  ]\n}\n",
            [String]()
        ),
        (
            "GET", "/__mockd/events?after=x", "", 400,
            "{\n  \"error\": \"after must be an entry id (a whole number), found \\\"x\\\"\"\n}\n",
            []
        ),
        (
            "GET", "/__mockd/requests?limit=-1", "", 400, "{\n  \"error\": \"limit must be a whole number, found \\\"-1\\\"\"\n}\n", []
        ),
        (
            "PUT", "/__mockd/scenario", #"{"scenario": "nope"}"#, 400,
            "{\n  \"error\": \"unknown scenario \\\"nope\\\"\",\n  \"known\": [\n    \"default\",\n    \"empty\",\n    \"error\"\n  ]\n}\n",
            []
        ),
        ("POST", "/__mockd/sessions", "", 501, "{\n  \"error\": \"this server cannot open session ports\"\n}\n", []),
        ("POST", "/__mockd/mocks", "{}", 501, "{\n  \"error\": \"this server cannot write files\"\n}\n", []),
        (
            "DELETE", "/__mockd/stubs/9", "", 404,
            "{\n  \"error\": \"no stub \\\"9\\\"; GET /__mockd/stubs lists them\"\n}\n", []
        ),
        (
            "POST", "/__mockd/health", "", 405,
            "{\n  \"error\": \"POST is not allowed on /__mockd/health\",\n  \"allowed\": [\n    \"GET\"\n  ]\n}\n", ["Allow: GET"]
        ),
    ])
    func adminRefusal_RendersAsBefore(method: String, target: String, body: String, status: Int, text: String, headers: [String])
        throws
    {
        let response = try AdminAPITests.Harness().call(method, target, body: body)
        #expect(response.status == status)
        #expect(response.origin == .admin)
        #expect(Self.text(response) == text)
        #expect(Self.headers(response) == ["Content-Type: \(ContentType.json)", "Cache-Control: no-store"] + headers)
    }
}
