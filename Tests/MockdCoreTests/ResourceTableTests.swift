import MockdCore
import Testing

/// JSON Merge Patch as RFC 7396 defines it (its appendix's examples), and key order kept.
@Suite("JSON Merge Patch")
struct JSONMergePatchTests {
    static func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

    @Test(arguments: [
        (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
        (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
        (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
        (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
        (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
        (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
        (#"["a","b"]"#, #"["c","d"]"#, #"["c","d"]"#),
        (#"{"a":"b"}"#, #"["c"]"#, #"["c"]"#),
        (#"{"a":"foo"}"#, #"null"#, #"null"#),
        (#"{"a":"foo"}"#, #""bar""#, #""bar""#),
        (#"{"e":null}"#, #"{"a":1}"#, #"{"e":null,"a":1}"#),
        (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
        (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
    ])
    func rfc7396Examples(target: String, patch: String, result: String) throws {
        let merged = try Self.parse(target).merged(with: Self.parse(patch))
        #expect(merged.serialized == result)
    }

    @Test func keptKeysStayInPlaceAndNumbersAsWritten() throws {
        let merged = try Self.parse(#"{"id":7,"name":"a","score":1.50}"#).merged(with: Self.parse(#"{"name":"b","tag":"x"}"#))
        #expect(merged.serialized == #"{"id":7,"name":"b","score":1.50,"tag":"x"}"#)
    }
}

/// A route table's `{"resource": …}` entries: what loads, and every error with its file and place.
@Suite("Resource tables")
struct ResourceTableTests {
    static let seed = #"[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]"#

    static func errors(files: [String: String], table: String) throws -> [String] {
        try withRouteFixture(files: files, tables: ["x.json": table]) { fixture in
            fixture.load().diagnostics.filter { $0.severity == .error }.map(\.description)
        }
    }

    @Test func aResourceLoadsItsSeedAndTheSeedFileNoLongerAnswersAsAFile() throws {
        let snapshot = try loadRoutes(
            files: ["entries/mock_api_entries_get.json": Self.seed, "mock_api_other_get.json": "{}"],
            tables: ["x.json": #"{"routes": [{"resource": "/api/entries", "seed": "entries/mock_api_entries_get.json"}]}"#])
        let resource = try #require(snapshot.resources.all.first)
        #expect(resource.path == "/api/entries")
        #expect(resource.idField == "id")
        #expect(resource.source.hasSuffix("routes/x.json#0"))
        #expect(resource.seeds[""]?.count == 2)
        #expect(resource.seeds[""]?.integerIDs == true)
        #expect(snapshot.files["mock_api_entries_get.json"] == nil)
        #expect(snapshot.files["mock_api_other_get.json"] != nil)
        #expect(snapshot.readsRequestBodies)
    }

    @Test func aSeedThatIsNotAnArrayOfObjects() throws {
        let errors = try Self.errors(files: ["s.json": #"{"id": 1}"#], table: #"{"routes": [{"resource": "/api/e", "seed": "s.json"}]}"#)
        #expect(errors.count == 1)
        #expect(errors.first?.contains("routes/x.json: routes[0].seed: ") == true, "\(errors)")
        #expect(errors.first?.contains("MockData/s.json: expected a JSON array of objects, found an object") == true, "\(errors)")
    }

    @Test func anItemWithoutTheIdField() throws {
        let errors = try Self.errors(
            files: ["s.json": #"[{"key": "a"}, {"name": "b"}]"#],
            table: #"{"routes": [{"get": 1}, {"resource": "/api/e", "seed": "s.json", "id": "key"}]}"#)
        #expect(
            errors.contains {
                $0.contains("routes/x.json: routes[1].seed: ")
                    && $0.contains("MockData/s.json [1]: missing \"key\", the resource's id field")
            },
            "\(errors)")
    }

    @Test func twoEqualIds() throws {
        let errors = try Self.errors(
            files: ["s.json": #"[{"id": 1}, {"id": 2}, {"id": 1}]"#], table: #"{"routes": [{"resource": "/api/e", "seed": "s.json"}]}"#)
        #expect(errors.first?.contains("MockData/s.json [2].id: 1 is also the id of [0]; ids must be unique") == true, "\(errors)")
    }

    @Test func aSeedThatIsNotJSONOrNotThere() throws {
        let invalid = try Self.errors(files: ["s.json": "[{"], table: #"{"routes": [{"resource": "/api/e", "seed": "s.json"}]}"#)
        #expect(invalid.first?.contains("routes[0].seed: ") == true && invalid.first?.contains("line 1, column 3") == true, "\(invalid)")
        let missing = try Self.errors(files: [:], table: #"{"routes": [{"resource": "/api/e", "seed": "none.json"}]}"#)
        #expect(missing.first?.contains("routes[0].seed: no such file") == true, "\(missing)")
    }

    @Test func badFieldsAndUnknownKeys() throws {
        let errors = try Self.errors(files: [:], table: #"{"routes": [{"resource": "/api/e/:id", "id": 3, "sed": "s.json"}]}"#)
        #expect(errors.contains { $0.contains("routes[0].resource: expected the collection's path") }, "\(errors)")
        #expect(errors.contains { $0.contains("routes[0].id: expected the name of the identifying field") }, "\(errors)")
        #expect(errors.contains { $0.contains("routes[0].sed: unknown key \"sed\"; did you mean \"seed\"?") }, "\(errors)")
    }

    @Test func theSameResourceTwice() throws {
        let errors = try Self.errors(files: [:], table: #"{"routes": [{"resource": "/api/e"}, {"resource": "/api/e"}]}"#)
        #expect(errors.contains { $0.contains("routes[1].resource: /api/e is already a resource at") }, "\(errors)")
    }

    @Test func stringIdsAndAScenarioOverlayOfTheSeed() throws {
        let snapshot = try loadRoutes(
            files: ["mock_api_e_get.json": #"[{"uid": "a"}]"#, "scenarios/empty/mock_api_e_get.json": "[]"],
            tables: ["x.json": #"{"routes": [{"resource": "/api/e", "seed": "mock_api_e_get.json", "id": "uid"}]}"#])
        let resource = try #require(snapshot.resources.all.first)
        #expect(resource.seeds[""]?.integerIDs == false)
        #expect(resource.seeds["empty"]?.count == 0)
        #expect(snapshot.overlays["empty"]?["mock_api_e_get.json"] == nil)
    }
}
