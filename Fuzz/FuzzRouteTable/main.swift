import CFuzzerDriver
@testable import MockdCore

/// Any JSON document as a route table: decoding ends with routes or diagnostics, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? JSONParser.parse(bytes) else { return 0 }
    var decoder = RouteDecoder(
        file: "fuzz.json", root: "/nonexistent-mockd-fuzz-root", files: MemoryFiles([:]), builder: ResponseBuilder(), firstOrder: 0)
    decoder.decodeTable(value)
    return 0
}

// libFuzzer's archive brings a `main` that calls LLVMFuzzerTestOneInput, and SwiftPM points
// `main` at this module's entry (`--defsym main=FuzzRouteTable_main`); the link allows both
// definitions (see Package.swift), and either one runs the same driver on `fuzzOne`.
@_cdecl("FuzzRouteTable_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzOne)
}
