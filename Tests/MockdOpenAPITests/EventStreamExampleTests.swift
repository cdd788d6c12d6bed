import MockdCore
import Testing

/// An operation whose response is `text/event-stream` with an example: the example is the
/// events as they go on the wire, and they are sent as a stream, as a `.sse` file is.
@Suite("OpenAPI event streams")
struct EventStreamExampleTests {
    static let document = """
        openapi: 3.0.3
        info: {title: chat, version: "1"}
        paths:
          /chat:
            get:
              responses:
                '200':
                  description: the answer, as it is written
                  content:
                    text/event-stream:
                      example: "data: {\\"delta\\": \\"Hel\\"}\\n\\ndata: {\\"delta\\": \\"lo\\"}\\n\\nevent: done\\ndata: [DONE]\\n\\n"
        """

    @Test func anEventStreamExampleIsSentAsAStream() throws {
        try withDocument(Self.document) { api in
            let answer = api.answer("GET", "/chat")
            guard case .streamed(let streamed) = answer.response else {
                Issue.record("expected a stream, got \(answer.response)")
                return
            }
            #expect(
                streamed.stream.pieces.map { String(decoding: $0.bytes, as: UTF8.self) }
                    == ["data: {\"delta\": \"Hel\"}\n\n", "data: {\"delta\": \"lo\"}\n\n", "event: done\ndata: [DONE]\n\n"])
            #expect(
                streamed.stream.pieces.dropFirst().allSatisfy {
                    $0.delay == Delay(milliseconds: ResponseStream.defaultIntervalMilliseconds)
                })
            #expect(streamed.head.headers.first(named: "Content-Type") == "text/event-stream")
        }
    }

    static func pieces(_ answer: Resolution) -> [String] {
        guard case .streamed(let streamed) = answer.response else {
            Issue.record("expected a stream, got \(answer.response)")
            return []
        }
        return streamed.stream.pieces.map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// A stream documented by its schema alone was one pretty-printed JSON object, which no
    /// EventSource reads: now a few events, each `data:` the schema's compact JSON.
    @Test func aSchemaAloneGivesEventsWhoseDataFitsIt() throws {
        let document = """
            openapi: 3.1.0
            info: {title: chat, version: "1"}
            paths:
              /chat:
                get:
                  responses:
                    '200':
                      description: chunks
                      content:
                        text/event-stream:
                          schema: {type: object, required: [delta, index], properties: {delta: {type: string}, index: {type: integer}}}
              /ticks:
                get:
                  responses:
                    '200':
                      description: ticks written as JSON events
                      content:
                        text/event-stream:
                          example: [{event: tick, id: "1", data: {n: 1}}, {data: "two\\nlines"}, {n: 3}]
            """
        try withDocument(document) { api in
            let chunks = Self.pieces(api.answer("GET", "/chat"))
            #expect(chunks.count == 3, "\(chunks)")
            for chunk in chunks {
                #expect(chunk.hasPrefix("data: {") && chunk.hasSuffix("}\n\n") && !chunk.dropLast(2).contains("\n"), "\(chunk)")
                #expect(chunk.contains("\"delta\":") && chunk.contains("\"index\":"), "\(chunk)")
            }
            #expect(
                Self.pieces(api.answer("GET", "/ticks"))
                    == ["event: tick\nid: 1\ndata: {\"n\":1}\n\n", "data: two\ndata: lines\n\n", "data: {\"n\":3}\n\n"])
        }
    }

    /// `Last-Event-ID` resumes an example's events after that id, as a real server's stream would.
    @Test func lastEventIDResumesTheExampleAfterThatEvent() throws {
        let document = """
            openapi: 3.0.3
            info: {title: ticks, version: "1"}
            paths:
              /ticks:
                get:
                  responses:
                    '200':
                      description: numbered events
                      content:
                        text/event-stream:
                          example: "id: 1\\ndata: a\\n\\nid: 2\\ndata: b\\n\\nid: 3\\ndata: c\\n\\n"
            """
        try withDocument(document) { api in
            let resumed = api.answer("GET", "/ticks", headers: [("Last-Event-ID", "1")])
            guard case .streamed(let streamed) = resumed.response else {
                Issue.record("expected a stream, got \(resumed.response)")
                return
            }
            #expect(
                streamed.stream.pieces.map { String(decoding: $0.bytes, as: UTF8.self) } == ["id: 2\ndata: b\n\n", "id: 3\ndata: c\n\n"])
            #expect(resumed.header("X-Mockd-Warning") == nil)
            let unknown = api.answer("GET", "/ticks", headers: [("Last-Event-ID", "7")])
            #expect(unknown.bodyText.hasPrefix("id: 1\n"))
            #expect(unknown.header("X-Mockd-Warning")?.contains("Last-Event-ID") == true)
        }
    }
}
