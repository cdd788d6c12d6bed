import CFuzzerDriver
import MockdCore
@testable import MockdOpenAPI

/// Any JSON value as a schema (`#/schema` of a document, so it may refer to itself): compiling
/// it and generating from it, the fixed value and a seeded one, end without a crash, within
/// the generator's budget, and what is generated serializes and validates without a crash.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let schema = try? JSONParser.parse(bytes) else { return 0 }
    let documents = Documents(root: "fuzz.json", value: ["schema": schema], files: MemoryFiles([:]))
    var compiler = SchemaCompiler(documents: documents, openAPI30: bytes.count % 2 == 0)
    let index = compiler.compile(schema, at: Location(file: "fuzz.json", pointer: "/schema"))
    let set = compiler.set
    var fixed = ExampleGenerator(set: set)
    var seeded = ExampleGenerator(set: set, random: SplitMix64(seed: UInt64(bytes.count)))
    for value in [fixed.generate(index), seeded.generate(index)] {
        _ = value.serialized
        _ = SchemaValidator(set: set).isValid(value, index)
        _ = XMLBody(set: set).document(value, schema: index)
    }
    return 0
}

// libFuzzer's archive brings a `main` that calls LLVMFuzzerTestOneInput, and SwiftPM points
// `main` at this module's entry (`--defsym main=FuzzSchemaExamples_main`); the link allows both
// definitions (see Package.swift), and either one runs the same driver on `fuzzOne`.
@_cdecl("FuzzSchemaExamples_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzOne)
}
