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
}
