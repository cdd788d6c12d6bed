import CCurl
import MockdCore

/// A transfer on the loop thread: its easy handle and what has arrived. Only the loop thread
/// (and libcurl's callbacks, which run inside curl_multi_perform on it) touches it.
final class ActiveTransfer {
    let transfer: Transfer
    let easy: UnsafeMutableRawPointer
    var requestHeaders: UnsafeMutablePointer<curl_slist>?
    let errorBuffer: UnsafeMutablePointer<CChar>
    var headers: [HTTPHeader] = []
    /// The blank line after a final (not 1xx) status line arrived: later lines are trailers.
    var headersComplete = false
    var informational = false
    var body: [UInt8] = []
    /// Set by the body callback when it refused the answer (too large).
    var stoppedBecause: ProxyFailure?
    var code = CURLE_OK

    private init(transfer: Transfer, easy: UnsafeMutableRawPointer) {
        self.transfer = transfer
        self.easy = easy
        self.errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        self.errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    /// An easy handle set up for `transfer`'s request.
    static func start(_ transfer: Transfer, api: UnsafePointer<ccurl_api>) -> Result<ActiveTransfer, ProxyFailure> {
        guard let easy = ccurl_easy_init(api) else {
            return .failure(ProxyFailure(.failed, reason: "curl_easy_init failed"))
        }
        let active = ActiveTransfer(transfer: transfer, easy: easy)
        let request = transfer.request
        var problem: String? = nil
        func set(_ option: CURLoption, _ code: CURLcode) {
            if code != CURLE_OK, problem == nil {
                problem = "curl_easy_setopt(\(option.rawValue)): \(String(cString: ccurl_easy_strerror(api, code)))"
            }
        }
        func set(_ option: CURLoption, long value: Int) { set(option, ccurl_setopt_long(api, easy, option, value)) }
        func set(_ option: CURLoption, string value: String) {
            // libcurl copies string options.
            set(option, value.withCString { ccurl_setopt_ptr(api, easy, option, $0) })
        }

        set(CURLOPT_URL, string: request.url)
        set(CURLOPT_NOSIGNAL, long: 1)
        set(CURLOPT_FOLLOWLOCATION, long: 0)
        // A proxy relays the path it was given: no "/../" squashing.
        set(CURLOPT_PATH_AS_IS, long: 1)
        set(CURLOPT_TIMEOUT_MS, long: UpstreamProxy.timeoutMilliseconds(request.timeout))
        set(CURLOPT_ERRORBUFFER, ccurl_setopt_ptr(api, easy, CURLOPT_ERRORBUFFER, active.errorBuffer))
        let context = Unmanaged.passUnretained(active).toOpaque()
        set(CURLOPT_WRITEFUNCTION, ccurl_setopt_write_callback(api, easy, CURLOPT_WRITEFUNCTION, receiveBody))
        set(CURLOPT_WRITEDATA, ccurl_setopt_ptr(api, easy, CURLOPT_WRITEDATA, context))
        set(CURLOPT_HEADERFUNCTION, ccurl_setopt_write_callback(api, easy, CURLOPT_HEADERFUNCTION, receiveHeader))
        set(CURLOPT_HEADERDATA, ccurl_setopt_ptr(api, easy, CURLOPT_HEADERDATA, context))
        // "" asks for every coding this libcurl decodes, and decodes; unset, the body is relayed as it came.
        if request.decodeAnswer { set(CURLOPT_ACCEPT_ENCODING, string: "") }

        switch request.body {
        case .head:
            set(CURLOPT_NOBODY, long: 1)
        case .none:
            set(CURLOPT_HTTPGET, long: 1)
            if request.method != "GET" { set(CURLOPT_CUSTOMREQUEST, string: request.method) }
        case .bytes(let bytes):
            set(CURLOPT_POSTFIELDSIZE_LARGE, ccurl_setopt_off_t(api, easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count)))
            // Copied by libcurl: the bytes need not outlive this call.
            set(
                CURLOPT_COPYPOSTFIELDS,
                bytes.withUnsafeBytes { raw in
                    ccurl_setopt_ptr(api, easy, CURLOPT_COPYPOSTFIELDS, raw.baseAddress ?? UnsafeRawPointer(active.errorBuffer))
                })
            if request.method != "POST" { set(CURLOPT_CUSTOMREQUEST, string: request.method) }
        }

        for line in request.headerLines {
            guard let appended = ccurl_slist_append(api, active.requestHeaders, line) else {
                problem = problem ?? "out of memory"
                break
            }
            active.requestHeaders = appended
        }
        if let list = active.requestHeaders { set(CURLOPT_HTTPHEADER, ccurl_setopt_ptr(api, easy, CURLOPT_HTTPHEADER, list)) }

        if let problem {
            active.release(api: api)
            return .failure(ProxyFailure(.failed, reason: problem))
        }
        return .success(active)
    }

    /// The outcome once libcurl is done with the transfer (`code` set).
    func result(api: UnsafePointer<ccurl_api>) -> TaskResult {
        if let stoppedBecause { return .failure(stoppedBecause) }
        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            let reason = detail.isEmpty ? String(cString: ccurl_easy_strerror(api, code)) : detail
            return .failure(UpstreamProxy.classify(code, reason: reason, timeout: transfer.request.timeout))
        }
        var status = 0
        _ = ccurl_getinfo_long(api, easy, CURLINFO_RESPONSE_CODE, &status)
        guard status >= 100 else {
            return .failure(ProxyFailure(.failed, reason: "the upstream sent no HTTP response"))
        }
        return .answer(status: status, headers: headers, body: body)
    }

    /// Frees the easy handle (after it left the multi handle) and what it used.
    func release(api: UnsafePointer<ccurl_api>) {
        ccurl_easy_cleanup(api, easy)
        if let requestHeaders { ccurl_slist_free_all(api, requestHeaders) }
        requestHeaders = nil
        errorBuffer.deallocate()
    }

    /// One header line from libcurl (status lines and the blank line included).
    func receivedHeaderLine(_ bytes: UnsafeBufferPointer<UInt8>) {
        var line = Substring(String(decoding: bytes, as: UTF8.self))
        while let last = line.last, last == "\r\n" || last == "\n" || last == "\r" { line.removeLast() }
        if line.hasPrefix("HTTP/") {
            // A new status line: what came before (a 1xx such as 100 Continue or 103 Early Hints) is not the answer's.
            headers = []
            headersComplete = false
            let fields = line.split(separator: " ", maxSplits: 2)
            informational = fields.count >= 2 && fields[1].hasPrefix("1")
            return
        }
        if line.isEmpty {
            if !informational { headersComplete = true }
            return
        }
        // Trailers of a chunked body come after it: not headers of the answer.
        guard !headersComplete else { return }
        if line.first == " " || line.first == "\t" {
            // obs-fold: a continuation of the previous field.
            if !headers.isEmpty { headers[headers.count - 1].value += " " + String(line.trimming(.whitespace)) }
            return
        }
        if let field = ForwardingRules.headerField(line) { headers.append(field) }
    }

    /// Body bytes; false refuses them (the answer is larger than allowed).
    func receivedBody(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let limit = transfer.request.maxResponseBytes
        if body.count + bytes.count > limit {
            stoppedBecause = ProxyFailure(.tooLarge, reason: "the answer is larger than \(limit) bytes")
            body = []
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }
}

// MARK: - libcurl callbacks (file scope, non-capturing; context arrives as the ActiveTransfer, unretained)

private func activeTransfer(_ context: UnsafeMutableRawPointer?) -> ActiveTransfer {
    Unmanaged<ActiveTransfer>.fromOpaque(context!).takeUnretainedValue()
}

private func receiveHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    guard let data, length > 0 else { return length }
    activeTransfer(context).receivedHeaderLine(
        UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length))
    return length
}

private func receiveBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    guard let data, length > 0 else { return length }
    let accepted = activeTransfer(context).receivedBody(
        UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length))
    // Anything but `length` makes libcurl stop with CURLE_WRITE_ERROR.
    return accepted ? length : 0
}
