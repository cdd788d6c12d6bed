import MockdCore
import MockdOpenAPI
import Testing

/// An XML media type gets XML: an example string as written, else XML made from the schema
/// (its `xml` object: `name`, `attribute`, `wrapped`), `Prefer: dynamic=true` included.
@Suite struct XMLBodyTests {
    static let document = """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /written:
            get:
              responses:
                "200": {description: ok, content: {application/xml: {example: "<pet name=\\"Tom\\"/>"}}}
          /pet:
            get:
              responses:
                "200": {description: ok, content: {application/xml: {schema: {$ref: "#/components/schemas/Pet"}}}}
          /plain:
            get:
              responses:
                "200": {description: ok, content: {text/xml: {schema: {type: object, properties: {a: {type: integer}}}}}}
        components:
          schemas:
            Pet:
              type: object
              required: [id, name, tags]
              properties:
                id: {type: integer, xml: {attribute: true}}
                name: {type: string, example: "Tom & Jerry"}
                tags:
                  type: array
                  xml: {wrapped: true}
                  items: {type: string, example: cat, xml: {name: tag}}
        """

    @Test func xmlAsWrittenOrFromTheSchema() throws {
        try withDocument(Self.document) { fixture throws in
            let written = fixture.answer("GET", "/written")
            #expect(written.header("Content-Type") == "application/xml")
            #expect(written.bodyText == "<pet name=\"Tom\"/>")

            let pet = fixture.answer("GET", "/pet")
            #expect(pet.header("Content-Type") == "application/xml")
            #expect(
                pet.bodyText == """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <Pet id="0"><name>Tom &amp; Jerry</name><tags><tag>cat</tag></tags></Pet>

                    """)
            let dynamic = fixture.answer("GET", "/pet", headers: [("Prefer", "dynamic=true")])
            #expect(dynamic.bodyText.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Pet id=\""))
            #expect(dynamic.bodyText.contains("<tags>"))

            #expect(fixture.answer("GET", "/plain").bodyText == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<root><a>0</a></root>\n")
        }
    }

    /// Found by the schema fuzz target: `allOf` parts that name their own schema made the XML
    /// writer gather properties forever.
    @Test func allOfPartsThatReferToThemselvesEnd() throws {
        let document = """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /loop:
                get:
                  responses:
                    "200": {description: ok, content: {application/xml: {schema: {$ref: "#/components/schemas/Loop"}}}}
            components:
              schemas:
                Loop:
                  allOf:
                    - {required: [p], properties: {p: {type: string}}}
                    - {$ref: "#/components/schemas/Loop"}
            """
        try withDocument(document) { fixture throws in
            let answer = fixture.answer("GET", "/loop")
            #expect(answer.status == 200)
            #expect(answer.bodyText.contains("<p>string</p>"), "\(answer.bodyText)")
        }
    }
}
