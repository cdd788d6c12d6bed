import CFuzzerDriver
@testable import MockdCore

/// Any file name: parsing never crashes; a name mockd makes for a request parses back; and the
/// file table finds, from a request's method and path, exactly the file that name builds (its
/// hash and comparison read the path in place: they must agree with `forRequest`).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = MockFileName.parse(text)
    let path = "/" + text.filter { $0 != "?" && $0 != "#" }
    var table = MockFileTable()
    for method in ["GET", "POST"] {
        let name = MockFileName.forRequest(method: method, path: path)
        _ = MockFileName.parse(name)
        table.insert(MockFile(name: name, relativePath: name, response: response))
    }
    for method in ["GET", "POST"] {
        let name = MockFileName.forRequest(method: method, path: path)
        guard table.file(method: method, path: path)?.name == name, table[name]?.name == name else {
            fatalError("the file table does not find \(name) for \(method) \(path.debugDescription)")
        }
    }
    if table.file(method: "PUT", path: path) != nil { fatalError("the file table found a PUT for \(path.debugDescription)") }
    return 0
}

private let response = PreparedResponse(
    id: 0, status: 200, contentType: nil, customHeaders: [], body: ResponseBody([UInt8]()), origin: .file("fuzz"))

// libFuzzer's archive brings a `main` that calls LLVMFuzzerTestOneInput, and SwiftPM points
// `main` at this module's entry (`--defsym main=FuzzMockFileName_main`); the link allows both
// definitions (see Package.swift), and either one runs the same driver on `fuzzOne`.
@_cdecl("FuzzMockFileName_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzOne)
}
