import Testing

@testable import MockdCore

/// The values a request copies on its way through the resolver and the adapter stay small: a
/// rare case stored inline (a WebSocket upgrade, an admin call, an unfinished request) made each
/// copy bigger and cost every request hundreds of instructions before anyone noticed
/// (docs/BENCHMARKS.md). Such a case is boxed (`indirect`); these bounds say when one is not.
@Suite("Value sizes on the request path")
struct ValueSizeTests {
    @Test("an origin is one string and its case")
    func origin() {
        #expect(MemoryLayout<Origin>.size <= MemoryLayout<String>.size + 1, "\(MemoryLayout<Origin>.size) bytes")
    }

    @Test("a reply and a resolution hold no rare case inline")
    func replyAndResolution() {
        #expect(MemoryLayout<Reply>.size <= 96, "Reply: \(MemoryLayout<Reply>.size) bytes")
        #expect(MemoryLayout<Resolution>.size <= 136, "Resolution: \(MemoryLayout<Resolution>.size) bytes")
    }
}
