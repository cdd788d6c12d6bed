// swift-tools-version:6.0
import PackageDescription

// One settings array for every target: Swift 6 mode, strict concurrency, explicit `any`; an
// import is internal unless a file says `package import` (what it exposes across modules is
// then visible), and a file names every module whose members it uses.
let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// How the executable is linked on Linux. lld packs its ~90,000 relative relocations into 17 KB
// (RELR: 2 MiB less to read and keep at every start), and in release builds lays out the
// functions that start mockd and answer requests next to each other (scripts/link-order.txt,
// written by scripts/link-order.sh): the kernel maps code in 64 KiB runs around each page run,
// so packed hot code keeps ~2.5 MiB fewer pages resident. A stale list only loses that gain.
// Two more cut what every start keeps resident (~1.4 MiB together): no export of mockd's 11,000
// symbols (Swift's static-stdlib arguments ask for it, for plugins linking against the
// executable; mockd loads none, and ld.so walks those tables at every start), and libstdc++
// from its static archive (see scripts/link/libstdc++.so).
let executableLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
            "-Xlinker", "--no-export-dynamic", "-L\(Context.packageDirectory)/scripts/link",
        ], .when(platforms: [.linux])),
    .unsafeFlags(
        [
            "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/scripts/link-order.txt",
            "-Xlinker", "--no-warn-symbol-ordering",
        ], .when(platforms: [.linux], configuration: .release)),
]

// WebSocket framing comes from wslay, a shared library on Debian. The fully static build (the
// container image, scripts/build-static.sh) links a libwslay.a that scripts/static-deps.sh builds
// (Debian ships none). MOCKD_NO_WEBSOCKET set to anything leaves WebSocket out of any build: no
// wslay needed, and upgrades get 501 saying so.
let webSocketFraming = Context.environment["MOCKD_NO_WEBSOCKET"] == nil

// `mockd mcp` links the MCP Swift SDK, and with it FoundationNetworking: ~10 MB more in a fully
// static binary, past the container image's 80 MB. MOCKD_NO_MCP set to anything leaves the
// command out (scripts/build-static.sh sets it: in a container no coding agent starts mockd mcp).
let agentServer = Context.environment["MOCKD_NO_MCP"] == nil

let package = Package(
    name: "mockd",
    // One minimum per platform for the whole package: SwiftPM has no per-target platforms. macOS
    // stays at 15, what the server needs (Synchronization.Mutex and the rest), so the executable's
    // minimum is not a claim nobody checks. iOS 15 is there for MockdKit alone (an XCUITest target
    // runs in the simulator; nothing else here is built for iOS). MockdKit's own code uses nothing
    // newer than macOS 12 / iOS 15 (no Duration, no Mutex, no URL(filePath:)), so it needs no
    // @available, and lowering macOS, if the server ever allows it, is this line alone; until then a
    // project below macOS 15 copies Sources/MockdKit (Foundation only) instead (docs/TESTKIT.md).
    platforms: [.macOS(.v15), .iOS(.v15)],
    products: [
        .executable(name: "mockd", targets: ["mockd"]),
        // The Swift test kit: a client for the admin API, and MockdProcess to run a mockd from tests.
        .library(name: "MockdKit", targets: ["MockdKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0"),
        // GraphQL's parser (later its validation and execution, for schema answers). It brings
        // swift-collections (OrderedCollections alone) and Foundation, which mockd links already.
        .package(url: "https://github.com/GraphQLSwift/GraphQL", from: "4.3.0"),
        // GraphQLSwift's own ordered maps (the schema's types, a result's fields), named because
        // MockdGraphQL reads them; the version GraphQL already brings.
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // The Model Context Protocol (JSON-RPC over stdio) for `mockd mcp`, and nothing else. Its
        // library builds on swift-log and swift-system; SwiftPM also fetches swift-nio and
        // eventsource, which only its sample executables and Apple platforms use.
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
    ],
    targets: [
        // libmicrohttpd, found by pkg-config; shim.h wraps its variadic calls.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        // mockd's lock: Synchronization.Mutex, or a pthread mutex for ThreadSanitizer builds
        // (-DMOCKD_PTHREAD_LOCK, `make sanitize`).
        .target(name: "MockdLock", swiftSettings: settings),
        // The core: naming rule, loading, route tables, the admin API, resolution. It decides and
        // does no I/O: it depends on no system layer, reads files only through a `FileSource` it
        // is given, and names every effect (a reload, a written file, a session port) in its output
        // for an adapter to carry out.
        .target(
            name: "MockdCore",
            dependencies: [
                "MockdLock",
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: settings
        ),
        // The core's `FileSource` on the disk: the one place a snapshot's reads reach the file system.
        .target(
            name: "MockdDisk",
            dependencies: ["MockdCore", "MockdSystem"],
            swiftSettings: settings
        ),
        // The system layer: every OS-specific call (file watching, the directory walk, threads,
        // sd_notify, CPU affinity, atomic file writes), Linux and Darwin branches side by side.
        .systemLibrary(name: "CMockdSystem"),
        .target(
            name: "MockdSystem",
            dependencies: ["CMockdSystem", "MockdLock"],
            swiftSettings: settings
        ),
        // The thin libmicrohttpd adapter: daemon, handler trampoline, prepared responses.
        .target(
            name: "MockdHTTP",
            dependencies: [
                "CMicroHTTPD", "MockdCore", "MockdDisk", "MockdLock", "MockdSystem",
                .product(name: "Logging", package: "swift-log"),
            ] + (webSocketFraming ? ["CWslay"] : []),
            swiftSettings: settings + (webSocketFraming ? [] : [.define("MOCKD_NO_WEBSOCKET")]),
            linkerSettings: executableLinking
        ),
        // wslay: WebSocket framing for upgraded connections (the adapter owns the socket).
        .systemLibrary(
            name: "CWslay",
            providers: [.apt(["libwslay-dev"]), .brew(["wslay"])]
        ),
        // libcurl's headers only: the library is loaded with dlopen when --proxy is used, so no
        // pkgConfig here (it would add -lcurl and load libcurl into every mockd).
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        // Partial mocking and recording: forwards misses upstream (libcurl's multi interface on
        // one thread of its own), saves answers as mocks.
        .target(
            name: "MockdProxy",
            dependencies: [
                "CCurl", "MockdCore", "MockdLock", "MockdSystem",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: settings
        ),
        // OpenAPI documents turned into the core's operation table at load: $refs, Swagger 2.0
        // conversion, compiled JSON Schema validation, example generation. OpenAPIKit checks a
        // document's structure for `mockd check`.
        .target(
            name: "MockdOpenAPI",
            dependencies: [
                "MockdCore", "MockdLock", "MockdSystem", .product(name: "Yams", package: "Yams"),
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
            ],
            swiftSettings: settings
        ),
        // `--graphql`: the core's `GraphQLDocumentReader` on GraphQLSwift/GraphQL's parser. Outside the
        // core, as MockdOpenAPI is: the core holds the protocol and decides; this reads documents.
        .target(
            name: "MockdGraphQL",
            dependencies: [
                "MockdCore", "MockdLock", .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            swiftSettings: settings
        ),
        // What `mockd serve` runs once its options are read: the server assembled from the settings
        // (logging, loading, upstream, saved resource state, watcher, signals), the reloader, and the
        // writers of mock files and resource state. No argument parsing, so tests drive it in-process.
        .target(
            name: "MockdServe",
            dependencies: [
                "MockdCore", "MockdDisk", "MockdHTTP", "MockdLock", "MockdProxy", "MockdSystem",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: settings
        ),
        // `mockd mcp`: an MCP server on stdio for coding agents, a client of the admin API over HTTP
        // (as MockdKit is, whose client it uses), never a way into the core.
        .target(
            name: "MockdMCP",
            dependencies: [
                "MockdKit", "MockdSystem", .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Logging", package: "swift-log"),  // the SDK's transports take a Logger
            ],
            swiftSettings: settings
        ),
        // The command line (swift-argument-parser): commands, options in groups, and the MOCKD_*
        // variables, which it turns into settings for MockdServe.
        .executableTarget(
            name: "mockd",
            dependencies: [
                "MockdCore", "MockdDisk", "MockdGraphQL", "MockdHTTP", "MockdKit", "MockdLock", "MockdOpenAPI", "MockdProxy",
                "MockdServe", "MockdSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ] + (agentServer ? ["MockdMCP"] : []),
            swiftSettings: settings + (agentServer ? [] : [.define("MOCKD_NO_MCP")])
        ),
        // The test kit: Foundation only (FoundationNetworking on Linux), no dependency and no C, so an
        // XCUITest target or another package's tests can use it without libmicrohttpd or the
        // server's packages (SwiftPM fetches only what the products one uses need). The upcoming
        // features of `settings` only; nothing here may ever take unsafe flags, which would make the
        // product unusable as a dependency.
        .target(name: "MockdKit", swiftSettings: settings),
        // What the test suites share (temporary folders, the in-process server, threads for
        // blocking work); not part of any product.
        .target(
            name: "TestSupport",
            dependencies: [
                "MockdCore", "MockdDisk", "MockdHTTP", "MockdLock", "MockdSystem", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: settings
        ),
        // The core without a disk or a socket: snapshots built from files in memory.
        .testTarget(
            name: "MockdCoreTests",
            dependencies: ["MockdCore", "MockdLock"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "MockdHTTPTests",
            dependencies: [
                // MockdServe for its reloader and mock-file writer, which the reload tests drive in-process.
                "MockdCore", "MockdDisk", "MockdGraphQL", "MockdHTTP", "MockdLock", "MockdServe", "TestSupport",
                "MockdKit",  // its Spawn, which starts mockd for the CLI tests
                .product(name: "Logging", package: "swift-log"),
                // swift-log's handler for tests: what was logged, kept in memory to be read back.
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: settings
        ),
        // The loader on real folders through `DiskFiles` (links, hidden files, unreadable files), and
        // `MemoryFiles` checked against it, so that core tests can trust memory.
        // MockdGraphQL's own parts without a server: introspection JSON written as SDL.
        .testTarget(
            name: "MockdGraphQLTests",
            dependencies: ["MockdCore", "MockdGraphQL", .product(name: "GraphQL", package: "GraphQL")],
            swiftSettings: settings
        ),
        .testTarget(
            name: "MockdDiskTests",
            dependencies: ["MockdCore", "MockdDisk", "TestSupport"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "MockdSystemTests",
            dependencies: ["MockdSystem", "MockdLock", "TestSupport"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "MockdOpenAPITests",
            dependencies: [
                "MockdCore", "MockdDisk", "MockdOpenAPI", "MockdHTTP", "MockdServe", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: settings
        ),
        // MockdKit against a real mockd: the executable at .build/debug/mockd, or $MOCKD_BINARY.
        // Depends on MockdKit alone, as a user's tests would; not on the mockd target, so building
        // these tests does not build the server.
        .testTarget(
            name: "MockdKitTests",
            // TestSupport for the app's side of a WebSocket (its client written from RFC 6455).
            dependencies: ["MockdKit", "TestSupport"],
            swiftSettings: settings
        ),
        // `mockd mcp`'s own logic without a server: arguments, scopes, the tool catalog, the embedded docs.
        .testTarget(
            name: "MockdMCPTests",
            dependencies: ["MockdMCP", .product(name: "MCP", package: "swift-sdk")],
            swiftSettings: settings
        ),
        .testTarget(
            name: "MockdProxyTests",
            dependencies: ["MockdCore", "MockdDisk", "MockdProxy", "MockdHTTP", "MockdLock", "MockdSystem", "TestSupport"],
            swiftSettings: settings
        ),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets (Fuzz/), only when `make fuzz` asks: they need -sanitize=fuzzer to link.
if Context.environment["MOCKD_FUZZ"] != nil {
    package.targets.append(.target(name: "CFuzzerDriver", path: "Fuzz/CFuzzerDriver"))
    for (name, dependencies) in [
        ("FuzzJSON", ["MockdCore"]), ("FuzzMockFileName", ["MockdCore"]),
        ("FuzzRouteTable", ["MockdCore"]), ("FuzzRequestTarget", ["MockdCore", "MockdHTTP"]),
        ("FuzzSchemaExamples", ["MockdCore", "MockdOpenAPI"]),
    ] {
        package.targets.append(
            .executableTarget(
                name: name, dependencies: ["CFuzzerDriver"] + dependencies.map { .target(name: $0) },
                path: "Fuzz/\(name)", swiftSettings: settings,
                // libFuzzer's own `main` and SwiftPM's entry symbol both exist; both run the driver.
                linkerSettings: [.unsafeFlags(["-Xlinker", "--allow-multiple-definition"])]))
        package.products.append(.executable(name: name, targets: [name]))
    }
}
