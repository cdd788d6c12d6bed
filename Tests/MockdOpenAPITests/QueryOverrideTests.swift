import MockdCore
import MockdDisk
import MockdOpenAPI
import Testing
import TestSupport

/// With `--openapi-query-overrides`, `__code`, `__example` and `__dynamic` act as `Prefer` does
/// (Prism's overrides); an undocumented `__code` is a 404. Off by default.
@Suite struct QueryOverrideTests {
    static let document = """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /pets:
            get:
              parameters: [{name: limit, in: query, schema: {type: integer}}]
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema: {type: array, items: {type: integer}}
                      examples: {cat: {value: [1]}, empty: {value: []}}
                "500": {description: boom, content: {application/json: {example: {error: true}}}}
        """

    func fixture(overrides: Bool, _ body: (OpenAPIFixture) throws -> Void) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("api.yaml", Self.document)
        var document = OpenAPIDocument(path: folder.child("api.yaml"))
        document.queryOverrides = overrides
        let result = MockDataLoader(files: DiskFiles(), root: folder.child("MockData"), operationSources: [document]).load()
        let snapshot = try #require(result.snapshot, "did not load: \(result.diagnostics)")
        try body(OpenAPIFixture(snapshot: snapshot, diagnostics: result.diagnostics, folder: folder))
    }

    @Test func overridesActAsPrefer() throws {
        try fixture(overrides: true) { fixture throws in
            let failed = fixture.answer("GET", "/pets?__code=500")
            #expect(failed.status == 500)
            #expect(try failed.json() == ["error": true])
            #expect(try fixture.answer("GET", "/pets?__example=empty&limit=3").json() == [])
            #expect(fixture.answer("GET", "/pets?__dynamic=true").header("Preference-Applied")?.contains("dynamic=true") == true)
            #expect(fixture.answer("GET", "/pets?__code=404").status == 404)
        }
    }

    @Test func offByDefault() throws {
        try fixture(overrides: false) { fixture in
            #expect(fixture.answer("GET", "/pets?__code=500").status == 200)
        }
    }
}
