#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCurl
import MockdCore
import MockdThreads
import Synchronization

// MARK: - Loading libcurl

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
            return .failure(CurlLoadError(description: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        return .success(CurlLibrary(api: api, version: ccurl_version(api).map { String(cString: $0) } ?? "libcurl"))
    }
}

struct CurlLoadError: Error, CustomStringConvertible, Sendable {
    var description: String
}

// MARK: - One request

/// What the loop thread needs to start one upstream request; built by `UpstreamProxy.makeRequest`.
struct UpstreamRequest: Sendable {
    enum Body: Sendable, Equatable {
        /// No body, no Content-Length (GET, DELETE…).
        case none
        /// HEAD: no body either way (CURLOPT_NOBODY, so curl does not wait for one).
        case head
        /// These bytes, with a Content-Length (even 0, for POST/PUT/PATCH).
        case bytes([UInt8])
    }

    var url: String
    var method: String
    /// `Name: value` lines for CURLOPT_HTTPHEADER (`Name;` for an empty value; `Name:` removes one curl would add).
    var headerLines: [String]
    var body: Body
    /// Ask for the encodings libcurl can decode and decode the answer (recording), instead of relaying it as encoded.
    var decodeAnswer: Bool
    var timeout: Duration
    var maxResponseBytes: Int
}

/// How one upstream exchange ended.
enum TaskResult: Sendable {
    case answer(status: Int, headers: [HTTPHeader], body: [UInt8])
    case failure(ProxyFailure)
}

/// One `forward` call as the caller's task and the loop thread share it: its continuation,
/// resumed exactly once, and whether the caller was cancelled.
final class Transfer: Sendable {
    let request: UpstreamRequest
    private struct State {
        var continuation: CheckedContinuation<TaskResult, Never>?
        var cancelled = false
        var finished = false
    }
    private let state = Mutex(State())

    init(_ request: UpstreamRequest) {
        self.request = request
    }

    static let cancelledFailure = ProxyFailure(.cancelled, reason: "the request was cancelled (mockd is shutting down or the client went away)")

    /// Stores the continuation; false, with it resumed (503), when the caller is already cancelled.
    func begin(_ continuation: CheckedContinuation<TaskResult, Never>) -> Bool {
        let cancelled = state.withLock { state in
            if state.cancelled {
                state.finished = true
                return true
            }
            state.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(returning: .failure(Self.cancelledFailure)) }
        return !cancelled
    }

    /// Marks the caller cancelled; true when the transfer was handed to the loop and is not finished (the loop must stop it).
    func markCancelled() -> Bool {
        state.withLock { state in
            state.cancelled = true
            return state.continuation != nil && !state.finished
        }
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Resumes the caller; later calls do nothing.
    func finish(_ result: TaskResult) {
        let continuation: CheckedContinuation<TaskResult, Never>? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: result)
    }
}

// MARK: - The loop

/// One libcurl multi handle and the one thread that drives it: it sleeps in curl_multi_poll
/// until a socket is ready, a libcurl timer is due, or `curl_multi_wakeup` says a request was
/// queued or cancelled (or the proxy is shutting down). Every easy handle is created, used and
/// freed on that thread; other threads only touch the Mutex-protected inbox and wake the loop.
final class CurlLoop: Sendable {
    let library: CurlLibrary
    private let multi: MultiHandle
    private struct Inbox {
        var added: [Transfer] = []
        var cancelled: [Transfer] = []
        var stopping = false
    }
    /// Every curl_multi_wakeup happens under this lock while `stopping` is false, so the loop
    /// can free the multi handle once it has seen `stopping`.
    private let inbox = Mutex(Inbox())
    private let thread = Mutex<JoinableThread?>(nil)
    /// The loop thread's CPU-time clock, for tests and measurements (Linux only).
    private let cpuClock = Mutex<clockid_t?>(nil)

    /// `CURLM *` is a pointer: not Sendable by itself. Used only as described above.
    private struct MultiHandle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    private init(library: CurlLibrary, multi: UnsafeMutableRawPointer) {
        self.library = library
        self.multi = MultiHandle(pointer: multi)
    }

    /// A multi handle and its thread, running.
    static func start(library: CurlLibrary) -> Result<CurlLoop, ProxyFailure> {
        guard let multi = ccurl_multi_init(library.api) else {
            return .failure(ProxyFailure(.failed, reason: "curl_multi_init failed"))
        }
        let loop = CurlLoop(library: library, multi: multi)
        switch JoinableThread.spawn({ loop.run() }) {
        case .success(let handle):
            loop.thread.withLock { $0 = handle }
            return .success(loop)
        case .failure(let error):
            _ = ccurl_multi_cleanup(library.api, multi)
            return .failure(ProxyFailure(.failed, reason: "cannot start the proxy thread: \(String(cString: strerror(error.code)))"))
        }
    }

    /// Queues a transfer; false when the loop is stopping (the caller answers 503).
    func submit(_ transfer: Transfer) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return false }
            inbox.added.append(transfer)
            _ = ccurl_multi_wakeup(library.api, multi.pointer)
            return true
        }
    }

    /// Asks the loop to stop a transfer it was given (it answers 503).
    func cancel(_ transfer: Transfer) {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return }
            inbox.cancelled.append(transfer)
            _ = ccurl_multi_wakeup(library.api, multi.pointer)
        }
    }

    /// Cancels everything queued or in flight (503) and waits for the thread to end. Idempotent.
    func shutdown() {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return }
            inbox.stopping = true
            _ = ccurl_multi_wakeup(library.api, multi.pointer)
        }
        if let handle = thread.withLock({ thread in defer { thread = nil }; return thread }) {
            handle.join()
        }
    }

    /// CPU time the loop thread has used so far; nil before it started or after it ended.
    func threadCPUTime() -> Duration? {
        cpuClock.withLock { clock in
            guard let clock else { return nil }
            var time = timespec()
            guard clock_gettime(clock, &time) == 0 else { return nil }
            return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
        }
    }

    // MARK: The loop thread

    private func run() {
        #if os(Linux)
        var clock = clockid_t()
        if pthread_getcpuclockid(pthread_self(), &clock) == 0 { cpuClock.withLock { $0 = clock } }
        defer { cpuClock.withLock { $0 = nil } }
        #endif

        let api = library.api
        var active: [UnsafeMutableRawPointer: ActiveTransfer] = [:]
        var handles: [ObjectIdentifier: UnsafeMutableRawPointer] = [:]

        func end(_ easy: UnsafeMutableRawPointer, _ result: TaskResult?) {
            guard let transfer = active.removeValue(forKey: easy) else { return }
            handles[ObjectIdentifier(transfer.transfer)] = nil
            _ = ccurl_multi_remove_handle(api, multi.pointer, easy)
            transfer.transfer.finish(result ?? transfer.result(api: api))
            transfer.release(api: api)
        }

        while true {
            let taken = inbox.withLock { inbox in
                defer { inbox.added = []; inbox.cancelled = [] }
                return (inbox.added, inbox.cancelled, inbox.stopping)
            }
            let (added, cancelled, stopping) = taken
            if stopping {
                for transfer in added { transfer.finish(.failure(Transfer.cancelledFailure)) }
                for easy in Array(active.keys) { end(easy, .failure(Transfer.cancelledFailure)) }
                break
            }
            for transfer in added {
                // Cancelled before the loop saw it (perhaps before its cancel request was queued): never started.
                if transfer.isCancelled {
                    transfer.finish(.failure(Transfer.cancelledFailure))
                    continue
                }
                switch ActiveTransfer.start(transfer, api: api) {
                case .success(let started):
                    if ccurl_multi_add_handle(api, multi.pointer, started.easy) == CURLM_OK {
                        active[started.easy] = started
                        handles[ObjectIdentifier(transfer)] = started.easy
                    } else {
                        started.release(api: api)
                        transfer.finish(.failure(ProxyFailure(.failed, reason: "curl_multi_add_handle failed")))
                    }
                case .failure(let failure):
                    transfer.finish(.failure(failure))
                }
            }
            for transfer in cancelled {
                // Not found: it already finished, or it is still to come and `isCancelled` stops it above.
                if let easy = handles[ObjectIdentifier(transfer)] { end(easy, .failure(Transfer.cancelledFailure)) }
            }

            var running: Int32 = 0
            _ = ccurl_multi_perform(api, multi.pointer, &running)
            var easy: UnsafeMutableRawPointer? = nil
            var code = CURLE_OK
            while ccurl_multi_next_done(api, multi.pointer, &easy, &code) == 1 {
                if let easy, let transfer = active[easy] {
                    transfer.code = code
                    end(easy, nil)
                }
            }
            // Sleeps until a socket is ready, libcurl's next timer (a timeout), a wakeup, or 10 s.
            _ = ccurl_multi_poll(api, multi.pointer, 10_000)
        }
        // `stopping` was seen: nobody calls curl_multi_wakeup any more.
        _ = ccurl_multi_cleanup(api, multi.pointer)
    }
}

/// A transfer on the loop thread: its easy handle and what has arrived. Only the loop thread
/// (and libcurl's callbacks, which run inside curl_multi_perform on it) touches it.
private final class ActiveTransfer {
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
            if code != CURLE_OK, problem == nil { problem = "curl_easy_setopt(\(option.rawValue)): \(String(cString: ccurl_easy_strerror(api, code)))" }
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
            set(CURLOPT_COPYPOSTFIELDS, bytes.withUnsafeBytes { raw in
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
            if !headers.isEmpty { headers[headers.count - 1].value += " " + line.trimmed(of: " \t") }
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        headers.append(HTTPHeader(String(line[..<colon]), line[line.index(after: colon)...].trimmed(of: " \t")))
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
    activeTransfer(context).receivedHeaderLine(UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length))
    return length
}

private func receiveBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    guard let data, length > 0 else { return length }
    let accepted = activeTransfer(context).receivedBody(UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length))
    // Anything but `length` makes libcurl stop with CURLE_WRITE_ERROR.
    return accepted ? length : 0
}
