import MockdCore
import MockdOpenAPI
import Testing

/// Query and path parameters read as their `style` and `explode` say (OpenAPI 3), and Swagger
/// 2.0's `collectionFormat`.
@Suite struct ParameterStyleTests {
    static let document = """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /exploded:
            get:
              parameters:
                - name: pagination
                  in: query
                  required: true
                  schema: {type: object, required: [offset, limit], properties: {offset: {type: integer}, limit: {type: integer, maximum: 200}}}
              responses: {"200": {description: ok}}
          /flat:
            get:
              parameters:
                - name: pagination
                  in: query
                  required: true
                  explode: false
                  schema: {type: object, required: [offset, limit], properties: {offset: {type: integer}, limit: {type: integer, maximum: 200}}}
              responses: {"200": {description: ok}}
          /pipes:
            get:
              parameters:
                - {name: tags, in: query, style: pipeDelimited, explode: false, schema: {type: array, maxItems: 2, items: {type: string, pattern: "^[a-z]+$"}}}
                - {name: ids, in: query, style: spaceDelimited, explode: false, schema: {type: array, items: {type: integer}}}
              responses: {"200": {description: ok}}
          /deep:
            get:
              parameters:
                - name: filter
                  in: query
                  style: deepObject
                  schema: {type: object, properties: {min: {type: integer}, name: {type: string}}, additionalProperties: false}
              responses: {"200": {description: ok}}
          /label/{ids}/matrix/{point}/simple/{pair}:
            get:
              parameters:
                - {name: ids, in: path, required: true, style: label, schema: {type: array, items: {type: integer}}}
                - {name: point, in: path, required: true, style: matrix, explode: true, schema: {type: object, properties: {x: {type: integer}, y: {type: integer}}}}
                - {name: pair, in: path, required: true, schema: {type: object, properties: {a: {type: integer}, b: {type: string}}}}
              responses: {"200": {description: ok}}
        """

    @Test func formObjects() throws {
        try withDocument(Self.document) { fixture throws in
            #expect(fixture.answer("GET", "/exploded?offset=1&limit=123").status == 200)
            let bad = fixture.answer("GET", "/exploded?offset=1&limit=1000")
            #expect(bad.status == 422)
            #expect(bad.bodyText.contains("query.pagination.limit"), "\(bad.bodyText)")
            #expect(fixture.answer("GET", "/exploded?offset=1").status == 422)

            #expect(fixture.answer("GET", "/flat?pagination=offset,0,limit,123").status == 200)
            #expect(fixture.answer("GET", "/flat?pagination=offset,0,limit,x").status == 422)
        }
    }

    @Test func delimitedAndDeepObject() throws {
        try withDocument(Self.document) { fixture throws in
            #expect(fixture.answer("GET", "/pipes?tags=abc|xyz&ids=1 2 3").status == 200)
            #expect(fixture.answer("GET", "/pipes?tags=abc,xyz").status == 422)
            #expect(fixture.answer("GET", "/pipes?tags=a|b|c").status == 422)
            #expect(fixture.answer("GET", "/pipes?ids=1 x").status == 422)

            #expect(fixture.answer("GET", "/deep?filter[min]=3&filter[name]=x").status == 200)
            let bad = fixture.answer("GET", "/deep?filter[min]=x&filter[other]=1")
            #expect(bad.status == 422)
            #expect(bad.bodyText.contains("query.filter.min"), "\(bad.bodyText)")
        }
    }

    /// An optional object parameter that is absent is not checked (nor read as null).
    @Test func absentOptionalObjectsAreNotValidated() throws {
        let document = """
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /search:
                get:
                  parameters:
                    - {name: page, in: query, schema: {type: object, properties: {offset: {type: integer}}}}
                    - {name: filter, in: query, style: deepObject, schema: {type: object, properties: {min: {type: integer}}}}
                  responses: {"200": {description: ok}}
            """
        try withDocument(document) { fixture throws in
            let absent = fixture.answer("GET", "/search")
            #expect(absent.status == 200, "\(absent.bodyText)")
            #expect(fixture.answer("GET", "/search?offset=1&filter[min]=2").status == 200)
            #expect(fixture.answer("GET", "/search?offset=x").status == 422)
        }
    }

    /// `?tags=` is the empty array, as the specification's table of style examples spells it.
    @Test func emptyValueIsTheEmptyArray() throws {
        try withDocument(Self.document) { fixture throws in
            let empty = fixture.answer("GET", "/pipes?tags=&ids=")
            #expect(empty.status == 200, "\(empty.bodyText)")
            #expect(fixture.answer("GET", "/pipes?tags=a||b").status == 422)
        }
        let swagger = """
            swagger: "2.0"
            info: {title: t, version: "1"}
            paths:
              /things:
                get:
                  parameters:
                    - {name: scopes, in: query, type: array, collectionFormat: pipes, items: {type: string, enum: [read, write]}}
                    - {name: ids, in: query, type: array, items: {type: integer}}
                  responses: {"200": {description: ok}}
            """
        try withDocument(swagger) { fixture throws in
            #expect(fixture.answer("GET", "/things?scopes=&ids=").status == 200)
            #expect(fixture.answer("GET", "/things?scopes=read|&ids=1,").status == 422)
        }
    }

    /// An integer has no bound of its own: one past Int's range is an integer, as in a JSON body.
    @Test func integersBeyondInt64() throws {
        let document = """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /pets/{petId}:
                get:
                  parameters:
                    - {name: petId, in: path, required: true, schema: {type: integer, minimum: 1}}
                    - {name: small, in: query, schema: {type: integer, format: int64}}
                  responses: {"200": {description: ok}}
            """
        try withDocument(document) { fixture throws in
            let big = fixture.answer("GET", "/pets/395109602265473174297599226339655680")
            #expect(big.status == 200, "\(big.bodyText)")
            #expect(fixture.answer("GET", "/pets/-395109602265473174297599226339655680").status == 422)
            #expect(fixture.answer("GET", "/pets/1?small=9223372036854775807").status == 200)
            let outOfFormat = fixture.answer("GET", "/pets/1?small=9223372036854775808")
            #expect(outOfFormat.status == 422)
            #expect(outOfFormat.bodyText.contains("expected an int64"), "\(outOfFormat.bodyText)")
            #expect(fixture.answer("GET", "/pets/1x").status == 422)
        }
    }

    @Test func pathStyles() throws {
        try withDocument(Self.document) { fixture throws in
            let good = fixture.answer("GET", "/label/.1,2,3/matrix/;x=1;y=2/simple/a,1,b,x")
            #expect(good.status == 200, "\(good.bodyText)")
            let bad = fixture.answer("GET", "/label/.1,z/matrix/;x=1;y=q/simple/a,w,b,x")
            #expect(bad.status == 422)
            #expect(bad.bodyText.contains("path.ids[1]"), "\(bad.bodyText)")
            #expect(bad.bodyText.contains("path.point.y"), "\(bad.bodyText)")
            #expect(bad.bodyText.contains("path.pair.a"), "\(bad.bodyText)")
        }
    }

    @Test func swagger2CollectionFormat() throws {
        let document = """
            swagger: "2.0"
            info: {title: t, version: "1"}
            paths:
              /things:
                get:
                  parameters:
                    - {name: pipes, in: query, type: array, collectionFormat: pipes, items: {type: integer}}
                    - {name: spaces, in: query, type: array, collectionFormat: ssv, items: {type: integer}}
                    - {name: tabs, in: query, type: array, collectionFormat: tsv, items: {type: integer}}
                    - {name: multi, in: query, type: array, collectionFormat: multi, items: {type: integer}}
                  responses: {"200": {description: ok}}
            """
        try withDocument(document) { fixture throws in
            #expect(fixture.answer("GET", "/things?pipes=1|2&spaces=1 2&tabs=1\t2&multi=1&multi=2").status == 200)
            #expect(fixture.answer("GET", "/things?pipes=1,2").status == 422)
            #expect(fixture.answer("GET", "/things?spaces=1,2").status == 422)
        }
    }
}
