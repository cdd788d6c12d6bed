@testable import MockdCore
import Testing

/// Which routes folder goes with a root when none is given.
struct RoutesFolderTests {
    @Test(arguments: [
        ("/home/me/app/MockData", "/home/me/app/routes"),
        ("/home/me/app/MockData/", "/home/me/app/routes"),
        ("app/MockData", "app/routes"),
        ("MockData", "routes"),
        ("/MockData", "/routes"),
        (".", "./../routes"),
        ("../data", "../routes"),
    ])
    func theFolderBesideTheRoot(root: String, beside: String) {
        #expect(RoutesFolder.besideRoot(root) == beside)
    }

    @Test func givenWinsAndIsTheOnlyOneWatched() {
        let folder = RoutesFolder(given: "my-routes", root: "/x/MockData")
        #expect(folder.current(in: MemoryFiles([:])) == "my-routes")
        #expect(folder.watched == ["my-routes"])
        #expect(folder.choice(in: MemoryFiles([:])) == .given("my-routes"))
    }

    @Test func besideTheRootComesBeforeTheWorkingDirectory() {
        withMemoryFolder(["app/MockData/mock_a_get.json": "{}", "app/routes/t.json": #"{"routes": []}"#]) { folder in
            let routes = RoutesFolder(given: nil, root: folder.child("app/MockData"))
            #expect(routes.candidates == [folder.child("app/routes"), "routes"])
            #expect(routes.current(in: folder.files) == folder.child("app/routes"))
            #expect(routes.choice(in: folder.files) == .besideRoot(folder.child("app/routes")))
        }
    }

    @Test func noneFoundIsNoErrorAndALaterLoadFindsIt() {
        withMemoryFolder(["app/MockData/mock_a_get.json": "{}"]) { folder in
            let routes = RoutesFolder(candidates: [folder.child("app/routes"), folder.child("work/routes")])
            let loader = MockDataLoader(files: folder.files, root: folder.child("app/MockData"), routesFolder: routes)
            let before = loader.load()
            #expect(before.diagnostics.isEmpty, "\(before.diagnostics)")
            #expect(before.snapshot?.routes.count == 0)
            let lookedFor = [folder.child("app/routes"), folder.child("work/routes")]
            #expect(loader.routesFolder.choice(in: folder.files) == .missing(lookedFor: lookedFor))
            folder.write("app/routes/t.json", #"{"routes": [{"method": "GET", "path": "/t", "response": {"text": "t"}}]}"#)
            let after = MockDataLoader(files: folder.files, root: folder.child("app/MockData"), routesFolder: routes)
            #expect(after.load().snapshot?.routes.count == 1)
        }
    }

    @Test func aGivenFolderThatIsMissingIsStillAnError() {
        let loaded = MockDataLoader(files: MemoryFiles([:]), root: "/nonexistent-root-\(#line)", routes: "/nonexistent-routes").load()
        #expect(loaded.diagnostics.contains { $0.description.contains("the routes folder does not exist") })
    }
}
