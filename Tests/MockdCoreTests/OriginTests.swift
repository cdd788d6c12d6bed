import MockdCore
import Testing

/// Where an answer came from is typed; the text people read is derived from it and keeps the
/// words `X-Mockd-Source`, the access log and the journal have always shown.
@Suite struct OriginTests {
    @Test(arguments: [
        (Origin.file("users/mock_api_users_get.json"), "file users/mock_api_users_get.json", Origin.Kind.file),
        (.route("routes/auth.json#2.1"), "route routes/auth.json#2.1", .route),
        (.stub("stub#3"), "stub#3", .stub),
        (.resource("routes/notes.json#0"), "resource routes/notes.json#0", .resource),
        (.operation("openapi api.yaml GET /pets 200 example \"cat\""), "openapi api.yaml GET /pets 200 example \"cat\"", .operation),
        (.admin, "admin", .admin),
        (.preflight, "cors preflight", .preflight),
        (.notFound, "404", .notFound),
        (.unknownMethod, "501", .unknownMethod),
        (.refusal("body memory"), "refused: body memory", .refusal),
        (.refusal(""), "refused", .refusal),
        (.closed("closed: timeout fault"), "closed: timeout fault", .closed),
        (
            .unfinished(UnfinishedRequest(.clientLeft, received: 512, declared: 2048)), "client left after 512 of 2,048 body bytes",
            .unfinished
        ),
        (.proxy(note: ""), "proxy", .proxy),
        (Origin.proxy(note: "").noting("12ms"), "proxy 12ms", .proxy),
        (Origin.proxyFailure(note: "").noting("3ms"), "proxy error 3ms", .proxyFailure),
        (.capture, "har", .capture),
    ])
    func label_IsTheTextPeopleRead_KindIsWhatProgramsTest(origin: Origin, label: String, kind: Origin.Kind) {
        #expect(origin.label == label)
        #expect(origin.kind == kind)
    }

    @Test func isMiss_OnlyTheReportAndThe501() {
        #expect(Origin.notFound.isMiss && Origin.unknownMethod.isMiss)
        #expect(!Origin.file("mock_404_get.json").isMiss, "a file whose name says 404 is a mock, not a miss")
        #expect(!Origin.proxy(note: "").isMiss && !Origin.refusal("").isMiss)
    }

    @Test func noting_OnlyTheUpstreamsAnswersTakeANote() {
        #expect(Origin.file("a.json").noting("12ms") == .file("a.json"))
    }
}
