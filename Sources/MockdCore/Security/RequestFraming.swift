/// Checks a request head for the framing and header problems that HTTP/1.1 says must be
/// refused (RFC 9112 §3, §3.2, §6.1, §6.3), before any of its body is read.
///
/// libmicrohttpd 0.9.75 accepts several of these (the first of two Content-Lengths wins, a
/// Transfer-Encoding it does not know waits for a body that never ends, a missing Host is
/// fine); 0.9.77 and 1.0 refuse most of them themselves ("client discipline"). The adapter
/// runs this on the header list it gets before it answers, so the same rules hold on any version.
package enum RequestFraming {
    package enum Verdict: Equatable, Sendable {
        /// Nothing wrong.
        case accept
        /// Answer `status` with `reason` at once and close the connection.
        case refuse(status: Int, reason: String)
    }

    /// What the rules read from the headers, in one pass: the adapter takes the body's facts
    /// from the same pass (`hasBody`, `declaredLength`) instead of scanning the headers again.
    package struct Head: Sendable {
        package private(set) var hosts = 0
        /// Every `Content-Length` value, lists split at commas.
        private(set) var lengths: [String] = []
        /// Every `Transfer-Encoding` coding, lower-cased, empty ones left out.
        package private(set) var codings: [String] = []
        /// A `Transfer-Encoding` header was sent, even an empty one.
        private var sawTransferEncoding = false

        /// `headers` in order, repeats included.
        package init(_ headers: [HTTPHeader]) {
            // By length first: this runs on every request, and most names match none of the three.
            for header in headers {
                switch header.name.utf8.count {
                case 4 where HTTPHeader.namesEqual(header.name, "Host"):
                    hosts += 1
                case 14 where HTTPHeader.namesEqual(header.name, "Content-Length"):
                    // `Content-Length: 5, 5` is one length sent twice (RFC 9110 §8.6).
                    lengths += header.value.split(separator: ",", omittingEmptySubsequences: false).map { String($0.trimming(.whitespace)) }
                case 17 where HTTPHeader.namesEqual(header.name, "Transfer-Encoding"):
                    sawTransferEncoding = true
                    codings += header.value.split(separator: ",").map { $0.trimming(.whitespace).lowercased() }.filter { !$0.isEmpty }
                default:
                    break
                }
            }
        }

        /// A body follows the head: a non-zero `Content-Length`, or any `Transfer-Encoding`.
        package var hasBody: Bool { sawTransferEncoding || lengths.contains { $0 != "0" } }

        /// The declared body length, as a number (`check` refuses unequal or non-numeric ones).
        package var declaredLength: Int? { lengths.first.flatMap { Int($0) } }
    }

    /// `version` as on the request line (`HTTP/1.1`).
    package static func check(method: String, version: String, head: Head) -> Verdict {
        if let problem = methodProblem(method) { return .refuse(status: 501, reason: problem) }
        let hosts = head.hosts, lengths = head.lengths, codings = head.codings
        if version == "HTTP/1.1" && hosts != 1 {
            return .refuse(
                status: 400,
                reason: hosts == 0 ? "an HTTP/1.1 request needs a Host header" : "the request has \(hosts) Host headers; it must have one")
        }
        if !codings.isEmpty {
            let sent = codings.joined(separator: ", ")
            // Chunked must come last, or the body's end cannot be found (RFC 9112 §6.3, rule 4).
            guard codings.last == "chunked" else {
                return .refuse(status: 400, reason: "Transfer-Encoding \(sent) does not end in chunked, so the body's length is unknown")
            }
            // Only chunked can be undone here (RFC 9112 §6.1: 501 for a coding not understood).
            guard codings.count == 1 else {
                return .refuse(status: 501, reason: "Transfer-Encoding \(sent) is not supported; only chunked is")
            }
            // RFC 9112 §6.3 rule 3 lets a server refuse this or read it as chunked; refused, as
            // libmicrohttpd 1.0 refuses it itself, so the status is the same on every version.
            guard lengths.isEmpty else {
                return .refuse(status: 400, reason: "the request has both Content-Length and Transfer-Encoding; send one")
            }
            return .accept
        }
        if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first }) else {
                return .refuse(
                    status: 400, reason: "the request has conflicting Content-Length values (\(lengths.joined(separator: ", ")))")
            }
            guard !first.isEmpty, first.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                return .refuse(status: 400, reason: "Content-Length \(first.debugDescription) is not a number of bytes")
            }
        }
        return .accept
    }

    /// Methods are case-sensitive (RFC 9110 §9.1): `get` is not `GET`, and mockd knows no
    /// lower-case methods. A method is a token; anything else is not a method at all.
    static func methodProblem(_ method: String) -> String? {
        if method == "GET" || method == "POST" || method == "HEAD" { return nil }  // most requests: no byte walk
        guard ASCII.isToken(method) else {
            return "\(method.debugDescription) is not a method"
        }
        if method.utf8.contains(where: { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) {
            return "unknown method \(method); methods are case-sensitive (\(method.uppercased()))"
        }
        return nil
    }
}
