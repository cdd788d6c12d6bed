import MockdCore
import MockdOpenAPI
import Testing

/// Which template answers a path several match: OpenAPI matches concrete paths before templated
/// ones, and a segment with fixed text around its parameter is the more concrete of two.
@Suite struct PathSpecificityTests {
    static let document = """
        openapi: 3.0.3
        info: {title: games, version: "1"}
        paths:
          /games/{id}:
            get:
              parameters: [{name: id, in: path, required: true, schema: {type: string}}]
              responses:
                "200": {description: the game, content: {application/json: {example: {as: json}}}}
          /games/{id}.pgn:
            get:
              parameters: [{name: id, in: path, required: true, schema: {type: string, pattern: "^[a-z]+$"}}]
              responses:
                "200": {description: the game in PGN, content: {application/x-chess-pgn: {example: "1. e4 e5"}}}
        """

    @Test func aTemplateWithTextAroundItsParameterIsReachedBehindABareOne() throws {
        try withDocument(Self.document) { api in
            let pgn = api.answer("GET", "/games/abc.pgn")
            #expect(pgn.status == 200)
            #expect(pgn.source.hasPrefix("openapi api.yaml GET /games/{id}.pgn "), "\(pgn.source)")
            #expect(pgn.bodyText == "1. e4 e5")
            let json = api.answer("GET", "/games/abc")
            #expect(json.source.hasPrefix("openapi api.yaml GET /games/{id} "), "\(json.source)")
        }
    }
}
