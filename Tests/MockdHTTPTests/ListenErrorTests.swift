#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import MockdHTTP
import Testing
import TestSupport

/// A server that cannot listen says why in words and keeps the system's code for programs.
@Suite("Listen errors")
struct ListenErrorTests {
    @Test func portInUse_KeepsTheErrnoAndShowsIt() async throws {
        try await withTestServer { taken in
            var caught: ServerError?
            do {
                try await withServer(root: taken.root, configure: { $0.port = taken.port }, logger: silentLogger) { _ in }
            } catch let error as ServerError {
                caught = error
            }
            let error = try #require(caught, "a second server started on a port in use")
            #expect(error.errno == EADDRINUSE)
            #expect(error.description.contains("127.0.0.1:\(taken.port)"), "\(error)")
            #expect(error.description.contains("the port is in use"), "\(error)")
            #expect(error.description.contains("errno \(EADDRINUSE): \(String(cString: strerror(EADDRINUSE)))"), "\(error)")
        }
    }

    @Test func aNameThatDoesNotResolve_HasNoErrno() async throws {
        let error = ServerError.cannotResolve(host: "nowhere.invalid", reason: "Name or service not known")
        #expect(error.errno == nil)
    }
}
