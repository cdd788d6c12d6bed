import CFuzzerDriver
import MockdCore

/// Any file name: parsing never crashes; a name mockd makes for a request parses back.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = MockFileName.parse(text)
    let path = "/" + text.filter { $0 != "?" && $0 != "#" }
    for method in ["GET", "POST"] {
        let name = MockFileName.forRequest(method: method, path: path)
        _ = MockFileName.parse(name)
    }
    return 0
}

// libFuzzer's archive brings a `main` that calls LLVMFuzzerTestOneInput, and SwiftPM points
// `main` at this module's entry (`--defsym main=FuzzMockFileName_main`); the link allows both
// definitions (see Package.swift), and either one runs the same driver on `fuzzOne`.
@_cdecl("FuzzMockFileName_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzOne)
}
