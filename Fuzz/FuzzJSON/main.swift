import CFuzzerDriver
import MockdCore

/// Any bytes: validate and parse agree, nothing crashes, a parsed value serializes to JSON
/// that parses back to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let error = JSONParser.validate(bytes)
    do {
        let value = try JSONParser.parse(bytes)
        precondition(error == nil, "validate rejected what parse accepted")
        let again = try JSONParser.parse(value.serialized)
        precondition(again == value, "serialize/parse round trip changed the value")
    } catch {
        precondition(JSONParser.validate(bytes) != nil, "parse rejected what validate accepted")
    }
    return 0
}

// libFuzzer's archive brings a `main` that calls LLVMFuzzerTestOneInput, and SwiftPM points
// `main` at this module's entry (`--defsym main=FuzzJSON_main`); the link allows both
// definitions (see Package.swift), and either one runs the same driver on `fuzzOne`.
@_cdecl("FuzzJSON_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzOne)
}
