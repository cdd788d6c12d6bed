import CFuzzerDriver
import MockdCore
@testable import MockdHTTP

/// Any request target (as libmicrohttpd hands it over, NUL-terminated): the adapter's own
/// decoding (percent-encoding check and its reason, query, raw path, absolute form) never reads past the end
/// or crashes; the framing rules take any method and header text.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let nul = bytes.firstIndex(of: 0) { bytes.removeSubrange(nul...) }
    bytes.append(0)
    bytes.withUnsafeBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { uri in
            let target = RequestTarget(uri)
            if let raw = target.rawPath { _ = HTTPServer.originForm(raw) }
            _ = target.percentEncodingError
        }
    }
    let text = String(decoding: bytes.dropLast(), as: UTF8.self)
    _ = HTTPServer.originForm(text)
    let lines = text.split(separator: "\n")
    let headers = lines.dropFirst().map { line -> HTTPHeader in
        let parts = line.split(separator: ":", maxSplits: 1)
        return HTTPHeader(String(parts.first ?? ""), parts.count > 1 ? String(parts[1]) : "")
    }
    _ = RequestFraming.check(method: lines.first.map(String.init) ?? "", version: "HTTP/1.1", head: RequestFraming.Head(headers))
    _ = AdminHostGuard().allows(host: text)
    _ = CredentialRedactor.redact(headers)
    return 0
}

// libFuzzer's archive brings a `main` that calls LLVMFuzzerTestOneInput, and SwiftPM points
// `main` at this module's entry (`--defsym main=FuzzRequestTarget_main`); the link allows both
// definitions (see Package.swift), and either one runs the same driver on `fuzzOne`.
@_cdecl("FuzzRequestTarget_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzOne)
}
