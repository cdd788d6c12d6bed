import CCurl

/// libcurl's functions, resolved with dlopen/dlsym by `ccurl_load`.
struct CurlLibrary: @unchecked Sendable {
    // @unchecked: the table is written once by ccurl_load, then only read; it is never freed.
    let api: UnsafePointer<ccurl_api>
    /// e.g. "libcurl/7.88.1 OpenSSL/3.0.11 zlib/1.2.13".
    let version: String

    /// Opened on first use, that is when the first UpstreamProxy is created: a mockd without
    /// --proxy never loads libcurl. A Swift global's initializer runs once, thread-safely, as
    /// curl_global_init needs.
    static let shared: Result<CurlLibrary, CurlLoadError> = load()

    static func load() -> Result<CurlLibrary, CurlLoadError> {
        var error = [CChar](repeating: 0, count: 512)
        guard let api = ccurl_load(&error, error.count) else {
            return .failure(
                CurlLoadError(description: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        return .success(CurlLibrary(api: api, version: ccurl_version(api).map { String(cString: $0) } ?? "libcurl"))
    }
}

struct CurlLoadError: Error, CustomStringConvertible, Sendable {
    var description: String
}
