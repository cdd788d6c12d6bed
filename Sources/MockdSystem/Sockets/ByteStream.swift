/// A connection mockd reads and writes itself without waiting, told by a dispatch source on
/// `fd` when to try: the upstream side of a relayed WebSocket (plain TCP, or TLS through the
/// proxy's HTTP client). Used only from one serial queue at a time.
package protocol ByteStream: AnyObject, Sendable {
    /// The socket to watch for readiness.
    var fd: Int32 { get }
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> ConnectionSocket.Transfer
    func write(from buffer: UnsafeRawPointer, count: Int) -> ConnectionSocket.Transfer
    /// Closes the connection; once the dispatch sources on `fd` are cancelled. Idempotent.
    func close()
}
