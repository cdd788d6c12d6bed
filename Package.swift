// swift-tools-version:6.0
import PackageDescription

// One settings array for every target: Swift 6 mode, strict concurrency, explicit `any`.
let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "mockd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "mockd", targets: ["mockd"]),
        .library(name: "MockdCore", targets: ["MockdCore"]),
        .library(name: "MockdHTTP", targets: ["MockdHTTP"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0"),
    ],
    targets: [
        // libmicrohttpd, found by pkg-config; shim.h wraps its variadic calls.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        // The pure core: naming rule, loading, route tables, resolution. No C, no sockets.
        .target(
            name: "MockdCore",
            dependencies: [
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: settings
        ),
        // A joinable pthread for the two long-lived loops (file watcher, libcurl).
        .target(name: "MockdThreads", swiftSettings: settings),
        // The thin libmicrohttpd adapter: daemon, handler trampoline, prepared responses.
        .target(
            name: "MockdHTTP",
            dependencies: [
                "CMicroHTTPD", "MockdCore", "MockdThreads",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: settings
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
                "CCurl", "MockdCore", "MockdThreads",
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
                "MockdCore", .product(name: "Yams", package: "Yams"),
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
            ],
            swiftSettings: settings
        ),
        .executableTarget(
            name: "mockd",
            dependencies: [
                "MockdCore", "MockdHTTP", "MockdProxy", "MockdOpenAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: settings
        ),
        // What the test suites share (temporary folders); not part of any product.
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: settings),
        .testTarget(
            name: "MockdCoreTests",
            dependencies: ["MockdCore", "TestSupport"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "MockdHTTPTests",
            dependencies: [
                "MockdCore", "MockdHTTP", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: settings
        ),
        .testTarget(
            name: "MockdOpenAPITests",
            dependencies: ["MockdCore", "MockdOpenAPI", "MockdHTTP", "TestSupport",
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: settings
        ),
        .testTarget(
            name: "MockdProxyTests",
            dependencies: ["MockdCore", "MockdProxy", "MockdHTTP", "TestSupport"],
            swiftSettings: settings
        ),
    ],
    swiftLanguageModes: [.v6]
)
