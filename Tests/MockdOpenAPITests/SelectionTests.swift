import MockdCore
import MockdOpenAPI
import Testing

/// Which answer an operation gives: status, body, headers, source; and where it sits in the resolution order.
@Suite struct SelectionTests {
    static let document = """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        servers: [{url: "https://api.example.com/v2"}]
        paths:
          /pets:
            get:
              responses:
                "404": {description: nope}
                "201":
                  description: created
                  content:
                    application/json:
                      example: {kind: "created"}
                "200":
                  description: ok
                  headers:
                    X-Rate-Limit: {required: true, schema: {type: integer, minimum: 10}}
                    X-Optional: {schema: {type: string}}
                  content:
                    application/json:
                      examples:
                        cat: {value: [{name: "Tom"}]}
                        empty: {value: []}
          /pets/{id}:
            get:
              parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
              responses:
                default:
                  description: whatever
                  content:
                    application/vnd.pet+json:
                      schema: {type: object, required: [id], properties: {id: {type: integer, minimum: 5}}}
          /only-errors:
            get:
              responses:
                "404": {description: a, content: {application/json: {example: {first: true}}}}
                "500": {description: b}
        """

    @Test func lowestSuccessAndFirstNamedExampleUnderTheServerPath() throws {
        try withDocument(Self.document) { fixture throws in
            let answer = fixture.answer("GET", "/v2/pets")
            #expect(answer.status == 200)
            #expect(try answer.json() == [["name": "Tom"]])
            #expect(answer.header("Content-Type") == "application/json")
            #expect(answer.header("X-Rate-Limit") == "10")
            #expect(answer.header("X-Optional") == nil)
            #expect(answer.source == "openapi api.yaml GET /pets 200 example \"cat\"")
            guard case .prepared = answer.response else { Issue.record("not prepared at load"); return }
            #expect(fixture.answer("GET", "/pets").isMiss)
        }
    }

    @Test func defaultWhenNoSuccessWithItsMediaTypeAndAGeneratedBody() throws {
        try withDocument(Self.document) { fixture throws in
            let answer = fixture.answer("GET", "/v2/pets/7")
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "application/vnd.pet+json")
            #expect(try answer.json() == ["id": 5])
            #expect(answer.source == "openapi api.yaml GET /pets/{id} default generated")
            #expect(fixture.answer("GET", "/v2/pets/7").bodyText == answer.bodyText)
        }
    }

    @Test func firstDocumentedWhenNeitherSuccessNorDefault() throws {
        try withDocument(Self.document) { fixture throws in
            let answer = fixture.answer("GET", "/v2/only-errors")
            #expect(answer.status == 404)
            #expect(try answer.json() == ["first": true])
        }
    }

    @Test func preferCodeExampleAndDynamic() throws {
        try withDocument(Self.document) { fixture throws in
            let created = fixture.answer("GET", "/v2/pets", headers: [("Prefer", "code=201")])
            #expect(created.status == 201)
            #expect(try created.json() == ["kind": "created"])
            #expect(created.header("Preference-Applied") == "code=201")

            let empty = fixture.answer("GET", "/v2/pets", headers: [("Prefer", "example=empty")])
            #expect(try empty.json() == [])
            #expect(empty.header("Preference-Applied") == "example=empty")

            let first = fixture.answer("GET", "/v2/pets/9", headers: [("Prefer", "dynamic=true; seed=42")])
            let second = fixture.answer("GET", "/v2/pets/9", headers: [("Prefer", "dynamic=true; seed=42")])
            #expect(first.bodyText == second.bodyText)
            #expect(first.header("Preference-Applied") == "dynamic=true, seed=42")
            let id = try #require(try first.json()["id"]).serialized
            #expect(Int(id)! >= 5)
        }
    }

    @Test func theScenarioPicksTheNamedExample() throws {
        try withDocument(Self.document) { fixture throws in
            #expect(try fixture.answer("GET", "/v2/pets", headers: [("X-Mock-Scenario", "empty")]).json() == [])
            // A scenario the operation has no example for keeps the default choice.
            #expect(try fixture.answer("GET", "/v2/pets", headers: [("X-Mock-Scenario", "other")]).json() == [["name": "Tom"]])
        }
    }

    @Test func aFileOverridesOneOperation() throws {
        try withDocument(Self.document, files: ["MockData/mock_v2_pets_get.json": "{\"from\": \"file\"}"]) { fixture throws in
            #expect(fixture.answer("GET", "/v2/pets").source == "file mock_v2_pets_get.json")
            #expect(fixture.answer("GET", "/v2/pets/7").source.hasPrefix("openapi"))
        }
    }

    @Test func aMissListsNearOperations() throws {
        try withDocument(Self.document) { fixture throws in
            let miss = fixture.answer("GET", "/v2/pet")
            #expect(miss.status == 404)
            let near = try #require(try miss.json()["nearOperations"])
            #expect(near.serialized.contains("GET /v2/pets"))
        }
    }

    /// The document serves `/v2/pets`; a client that left out the base path is told so, not to create a file.
    @Test func aMissWithoutTheBasePathNamesTheOperation() throws {
        try withDocument(Self.document) { fixture throws in
            let miss = fixture.answer("GET", "/pets")
            #expect(miss.status == 404)
            let report = try miss.json()
            let near = try #require(report["nearOperations"])
            #expect(near.serialized.contains("GET /v2/pets"), "\(near.serialized)")
            let hint = try #require(report["hint"]?.serialized)
            #expect(hint.contains("GET /v2/pets") && hint.contains("base path /v2"), "\(hint)")
            #expect(!hint.contains("create"), "\(hint)")
        }
    }

    /// `mockd routes` and `GET /__mockd/routes`' `resolutionOrder` list the operations where the
    /// resolver tries them: after the files, in every scenario; named examples are said.
    @Test func theResolutionOrderListsOperationsAfterTheFiles() throws {
        try withDocument(Self.document, files: ["MockData/mock_v2_pets_get.json": "{}"]) { fixture throws in
            let shared = try #require(ResolutionOrder.sections(fixture.snapshot).last)
            #expect(shared.scenario == nil)
            #expect(
                shared.entries.map { "\($0.method) \($0.path) ← \($0.answeredBy)" } == [
                    "GET /v2/pets ← file mock_v2_pets_get.json",
                    "GET /v2/pets ← openapi api.yaml GET /pets (examples cat, empty)",
                    "GET /v2/pets/{id} ← openapi api.yaml GET /pets/{id}",
                    "GET /v2/only-errors ← openapi api.yaml GET /only-errors",
                ])
            let text = ResolutionOrder.text(fixture.snapshot)
            #expect(
                text.split(separator: "\n").contains {
                    $0.hasPrefix("  GET /v2/pets/{id} ") && $0.hasSuffix("← openapi api.yaml GET /pets/{id}")
                }, "\(text)")
        }
    }

    @Test func anotherMethodOnAKnownPathIs405WithAllow() throws {
        try withDocument(Self.document) { fixture throws in
            let answer = fixture.answer("DELETE", "/v2/pets")
            #expect(answer.status == 405)
            #expect(answer.header("Allow") == "GET, HEAD")
            #expect(answer.header("Content-Type") == "application/problem+json")
        }
    }
}

@Suite struct PathMatchingTests {
    static let document = """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /pets/mine: {get: {responses: {"200": {description: a, content: {application/json: {example: "mine"}}}}}}
          /pets/{id}:
            get: {responses: {"200": {description: b, content: {application/json: {example: "by id"}}}}}
            delete: {responses: {"204": {description: c}}}
          /files/{name}.json: {get: {responses: {"200": {description: d, content: {application/json: {example: "file"}}}}}}
        """

    @Test func aLiteralSegmentWinsAndAnotherTemplateMayHaveTheMethod() throws {
        try withDocument(Self.document) { fixture throws in
            #expect(fixture.answer("GET", "/pets/mine").bodyText == "\"mine\"\n")
            #expect(fixture.answer("GET", "/pets/7").bodyText == "\"by id\"\n")
            #expect(fixture.answer("DELETE", "/pets/mine").status == 204)
            #expect(fixture.answer("HEAD", "/pets/7").status == 200)
            #expect(fixture.answer("GET", "/files/a.json").bodyText == "\"file\"\n")
            #expect(fixture.answer("GET", "/files/a.txt").isMiss)
            let notAllowed = fixture.answer("PUT", "/pets/mine")
            #expect(notAllowed.status == 405)
            #expect(notAllowed.header("Allow") == "GET, HEAD")
        }
    }
}

/// Matching in a large table (the segment tree): the same answers as in a small one.
@Suite struct LargeTableTests {
    static var document: String {
        var paths = ""
        for n in 0..<300 {
            paths +=
                "  /v1/r\(n)s: {get: {responses: {\"200\": {description: a, content: {application/json: {example: \"list \(n)\"}}}}}}\n"
            paths += "  /v1/r\(n)s/{id}:\n"
            paths += "    get: {responses: {\"200\": {description: b, content: {application/json: {example: \"one \(n)\"}}}}}\n"
            paths += "    delete: {responses: {\"204\": {description: c}}}\n"
        }
        paths += "  /a/{x}/c: {get: {responses: {\"200\": {description: d, content: {application/json: {example: \"a-x-c\"}}}}}}\n"
        paths +=
            "  /{y}/b/c: {get: {responses: {\"200\": {description: e, content: {application/json: {example: \"y-b-c\"}}}}}, put: {responses: {\"200\": {description: f}}}}\n"
        return "openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n" + paths
    }

    @Test func eachPathFindsItsOperationAndTheMostSpecificComesFirst() throws {
        try withDocument(Self.document) { fixture throws in
            #expect(fixture.snapshot.operations.operations.count == 903)
            #expect(fixture.answer("GET", "/v1/r0s").bodyText == "\"list 0\"\n")
            #expect(fixture.answer("GET", "/v1/r299s/abc").bodyText == "\"one 299\"\n")
            #expect(fixture.answer("DELETE", "/v1/r150s/7").status == 204)
            #expect(fixture.answer("GET", "/v1/r300s/7").isMiss)
            #expect(fixture.answer("GET", "/v1/r1s/7/more").isMiss)
            let notAllowed = fixture.answer("POST", "/v1/r42s/1")
            #expect(notAllowed.status == 405)
            #expect(notAllowed.header("Allow") == "GET, DELETE, HEAD")
            // The leftmost literal decides: /a/{x}/c before /{y}/b/c; another method may still answer.
            #expect(fixture.answer("GET", "/a/b/c").bodyText == "\"a-x-c\"\n")
            #expect(fixture.answer("PUT", "/a/b/c").status == 200)
            #expect(fixture.answer("GET", "/z/b/c").bodyText == "\"y-b-c\"\n")
            #expect(fixture.answer("DELETE", "/a/b/c").header("Allow") == "GET, HEAD")
        }
    }
}
