import MockdCore
import Testing

/// A request whose body never all came: what the access line and the journal say, and which
/// endings still get a 408.
@Suite struct UnfinishedRequestTests {
    @Test(arguments: [
        (UnfinishedRequest.Cause.clientLeft, 0, "client left after 512 of 2,048 body bytes"),
        (.idleTimeout(seconds: 30), 408, "timed out after 512 of 2,048 body bytes (--idle-timeout)"),
        (.slowBody(bytesPerSecond: 1024), 408, "too slow after 512 of 2,048 body bytes (--min-body-rate 1024)"),
        (.stopping, 0, "mockd stopped after 512 of 2,048 body bytes"),
        (.connectionError, 0, "connection failed after 512 of 2,048 body bytes"),
    ])
    func label_SaysHowFarTheBodyGot(cause: UnfinishedRequest.Cause, status: Int, label: String) {
        let request = UnfinishedRequest(cause, received: 512, declared: 2048)
        #expect(request.status == status)
        #expect(request.label == label)
    }

    @Test func onlyTheIdleTimeout_SendsA408Itself() throws {
        let answer = try #require(UnfinishedRequest(.idleTimeout(seconds: 30), received: 512, declared: 2048).answer)
        #expect(answer.status == 408)
        #expect(
            answer.body(.compact)
                == "{\"error\":\"the request body stopped coming for 30 s (--idle-timeout) after 512 of 2,048 body bytes\"}\n")
        // The guard has sent the slow body's 408; nobody reads an answer after the others.
        for cause in [UnfinishedRequest.Cause.slowBody(bytesPerSecond: 1024), .clientLeft, .stopping, .connectionError] {
            #expect(UnfinishedRequest(cause, received: 512, declared: 2048).answer == nil)
        }
    }

    @Test(arguments: [
        (UnfinishedRequest.Cause.clientLeft, 0, "client left during the head"),
        (.headTimeout(seconds: 10), 408, "timed out during the head (--head-timeout 10)"),
        (.evicted, 408, "closed during the head to make room (--max-connections)"),
        (.idleTimeout(seconds: 30), 408, "timed out during the head (--idle-timeout)"),
        (.stopping, 0, "mockd stopped during the head"),
        (.connectionError, 0, "connection failed during the head"),
    ])
    func aHeadThatNeverCompleted_SaysSo(cause: UnfinishedRequest.Cause, status: Int, label: String) {
        let request = UnfinishedRequest.head(cause)
        #expect(request.status == status)
        #expect(request.label == label)
    }

    @Test func aHeadAtTheIdleTimeout_Gets408AboutTheHead() throws {
        let answer = try #require(UnfinishedRequest.head(.idleTimeout(seconds: 30)).answer)
        #expect(answer.body(.compact) == "{\"error\":\"the request head stopped coming for 30 s (--idle-timeout)\"}\n")
        // The guard sent its own 408 for these.
        #expect(UnfinishedRequest.head(.headTimeout(seconds: 10)).answer == nil)
        #expect(UnfinishedRequest.head(.evicted).answer == nil)
    }

    @Test func aChunkedBody_HasNoDeclaredLength() {
        #expect(
            UnfinishedRequest(.clientLeft, received: 1_234_567, declared: nil).label == "client left after 1,234,567 body bytes (chunked)")
    }
}
