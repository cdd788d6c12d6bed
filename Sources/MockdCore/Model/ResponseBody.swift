/// Response bytes stored once, at a stable address, for the life of a configuration snapshot.
///
/// The HTTP adapter hands this memory to libmicrohttpd without copying it (it keeps the body
/// alive until libmicrohttpd says it is done), so each mock file exists once in memory.
package final class ResponseBody: Sendable {
    /// Immutable after init; freed in deinit.
    package nonisolated(unsafe) let bytes: UnsafeRawBufferPointer

    package init<Bytes: Collection>(_ source: Bytes) where Bytes.Element == UInt8 {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(source.count, 1), alignment: 1)
        buffer.copyBytes(from: source)
        bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<source.count])
    }

    /// Takes ownership of memory allocated with `UnsafeMutableRawBufferPointer.allocate` (a file
    /// read straight into response memory).
    package init(adopting buffer: UnsafeMutableRawBufferPointer, count: Int) {
        bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
    }

    package var count: Int { bytes.count }
    package var array: [UInt8] { Array(bytes) }

    deinit {
        // `bytes` may be an empty slice of a 1-byte allocation: free from the base address.
        UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.deallocate()
    }
}
