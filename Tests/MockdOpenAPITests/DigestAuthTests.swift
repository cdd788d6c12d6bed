import MockdCore
import MockdOpenAPI
import Testing

/// An `http` scheme `digest` asks for `Authorization: Digest …` (present, not verified) and
/// challenges with `WWW-Authenticate: Digest …`.
@Suite struct DigestAuthTests {
    static let document = """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /secret:
            get:
              security: [{digest: []}]
              responses: {"200": {description: ok}}
        components:
          securitySchemes:
            digest: {type: http, scheme: digest}
        """

    @Test func digestCredentialsArePresenceChecked() throws {
        try withDocument(Self.document) { fixture throws in
            let refused = fixture.answer("GET", "/secret")
            #expect(refused.status == 401)
            #expect(refused.header("WWW-Authenticate")?.hasPrefix("Digest ") == true)
            #expect(fixture.answer("GET", "/secret", headers: [("Authorization", "Bearer x")]).status == 401)
            let accepted = fixture.answer("GET", "/secret", headers: [("Authorization", #"Digest username="a", response="b""#)])
            #expect(accepted.status == 200)
        }
    }
}
