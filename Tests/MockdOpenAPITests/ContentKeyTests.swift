import MockdCore
import MockdDisk
import MockdOpenAPI
import Testing
import TestSupport

/// A key under `content` that is not a media type (`description:` indented one level too deep)
/// is named with its place; the media types beside it are still served.
@Suite struct ContentKeyTests {
    static let document = """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /pets:
            get:
              responses:
                "200":
                  content:
                    description: ok
                    application/json: {example: [1]}
        """

    @Test func servedWithoutTheStrayKeyAndReported() throws {
        try withDocument(Self.document) { fixture throws in
            let answer = fixture.answer("GET", "/pets")
            #expect(answer.header("Content-Type") == "application/json")
            #expect(try answer.json() == [1])
            let reported = fixture.diagnostics.map(\.description)
            #expect(
                reported.contains {
                    $0.contains("#/paths/~1pets/get/responses/200/content/description") && $0.contains("not a media type")
                }, "\(reported)")
        }
    }

    @Test func checkCallsItAnError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("api.yaml", Self.document)
        let loaded = MockDataLoader(
            files: DiskFiles(), root: folder.child("MockData"),
            operationSources: [
                OpenAPIDocument(path: folder.child("api.yaml"), checkExamples: true)
            ]
        ).load()
        #expect(
            loaded.diagnostics.contains { $0.severity == .error && $0.description.contains("not a media type") }, "\(loaded.diagnostics)")
    }
}
