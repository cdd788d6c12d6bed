import MockdCore

/// A 408 mockd writes on a connection's socket itself, behind libmicrohttpd's back: the
/// connection guard's, and an unfinished request's at the idle timeout. libmicrohttpd is
/// closing these connections (or is told to), and would send nothing on them.
enum LastAnswer {
    /// The whole answer's bytes: the JSON refusal on one line, `Connection: close`, and the
    /// `X-Mockd-Source` every answer carries.
    static func timeout(_ answer: ErrorAnswer, origin: Origin) -> [UInt8] {
        let body = answer.body(.compact)
        let message =
            "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\nX-Mockd-Source: \(origin.label)\r\n\r\n" + body
        return Array(message.utf8)
    }
}
