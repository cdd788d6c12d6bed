import Foundation
import MockdHTTP
import Testing

/// Which libmicrohttpd mockd runs on: read from the library loaded, and the one it was built
/// against (`make test` builds on the system's, `make test-mhd1` on 1.0.x from scripts/mhd1-deps.sh).
@Suite("libmicrohttpd version")
struct LibraryVersionTests {
    @Test func comparesNumerically() {
        #expect(MicroHTTPDVersion("0.9.77").isAtLeast([0, 9, 77]))
        #expect(MicroHTTPDVersion("1.0.1").isAtLeast([0, 9, 77]))
        #expect(MicroHTTPDVersion("0.9.100").isAtLeast([0, 9, 77]))
        #expect(!MicroHTTPDVersion("0.9.75").isAtLeast([0, 9, 77]))
        #expect(!MicroHTTPDVersion("0.9").isAtLeast([0, 9, 77]))
        #expect(MicroHTTPDVersion("1").isAtLeast([1, 0, 0]))
        #expect(!MicroHTTPDVersion("0.9.75").hasClientDiscipline)
        #expect(MicroHTTPDVersion("1.0.1").hasClientDiscipline)
    }

    /// The library this test process loaded is the one pkg-config names for the build (with
    /// `make test-mhd1`, PKG_CONFIG_PATH points at the 1.0 prefix): a build that linked one
    /// version and loads another fails here.
    @Test func runningLibraryIsTheOneBuiltAgainst() async throws {
        let pkgConfig = try await runProcess("/usr/bin/env", ["pkg-config", "--modversion", "libmicrohttpd"])
        try #require(pkgConfig.status == 0, "\(pkgConfig)")
        let built = pkgConfig.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(MicroHTTPDVersion.running.text == built)
        if let expected = ProcessInfo.processInfo.environment["MOCKD_EXPECT_LIBMICROHTTPD"] {
            #expect(MicroHTTPDVersion.running.text == expected, "MOCKD_EXPECT_LIBMICROHTTPD")
        }
    }

    @Test func versionOptionNamesTheLibrary() async throws {
        let result = try await runProcess(CLITests.executable, ["--version"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0 (libmicrohttpd \(MicroHTTPDVersion.running.text))",
            "\(result)")
    }
}
