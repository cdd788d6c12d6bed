import Foundation
import MockdCore
@testable import MockdOpenAPI
import Testing

/// OpenAPI 3.1 `contentEncoding`: a generated string is text in that encoding, which a client
/// generated from the document decodes.
@Suite struct ContentEncodingTests {
    static func generated(_ schema: String, seed: UInt64? = nil) throws -> String {
        let (set, index) = try SchemaKeywordTests.compile(schema)
        var generator = ExampleGenerator(set: set, random: seed.map { SplitMix64(seed: $0) })
        let value = generator.generate(index)
        #expect(SchemaValidator(set: set).isValid(value, index), "generated \(value.serialized) does not validate against \(schema)")
        return try #require(value.stringValue)
    }

    @Test func base64IsValidBase64() throws {
        let text = try Self.generated(#"{"type": "string", "contentEncoding": "base64"}"#)
        #expect(text == "bW9ja2Q=")
        for seed: UInt64 in 1...5 {
            let random = try Self.generated(#"{"type": "string", "contentEncoding": "base64"}"#, seed: seed)
            #expect(Data(base64Encoded: random) != nil, "\(random)")
        }
    }

    @Test func base64HonoursItsLengths() throws {
        let long = try Self.generated(#"{"type": "string", "contentEncoding": "base64", "minLength": 30}"#)
        #expect(long.count >= 30 && long.count % 4 == 0)
        #expect(Data(base64Encoded: long) != nil, "\(long)")
        let short = try Self.generated(#"{"type": "string", "contentEncoding": "base64", "maxLength": 6}"#)
        #expect(short.count <= 6 && short.count % 4 == 0)
        #expect(Data(base64Encoded: short) != nil, "\(short)")
    }

    @Test func base64urlHasItsAlphabetAndNoPadding() throws {
        for seed: UInt64 in 1...5 {
            let text = try Self.generated(#"{"type": "string", "contentEncoding": "base64url", "minLength": 20}"#, seed: seed)
            #expect(text.count >= 20)
            #expect(text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }, "\(text)")
        }
    }

    @Test func aDocumentAnswersWithBase64() throws {
        let document = """
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /file:
                get:
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema:
                            type: object
                            required: [data]
                            properties:
                              data: {type: string, contentEncoding: base64, contentMediaType: image/png}
            """
        try withDocument(document) { fixture throws in
            let data = try #require(try fixture.answer("GET", "/file").json()["data"]?.stringValue)
            #expect(Data(base64Encoded: data) != nil, "\(data)")
        }
    }
}
