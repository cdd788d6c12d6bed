/// Bytes of one log line written into memory sized for it beforehand: a pointer and a count,
/// no capacity or uniqueness check per byte as `Array.append` has (the access line is built
/// for every request, and appending it piece by piece would be mostly those checks).
struct LineBuilder {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private(set) var count = 0

    /// `memory` must hold everything that will be put (see `AccessRecord.maximumLength`).
    init(_ memory: UnsafeMutableBufferPointer<UInt8>) {
        base = memory.baseAddress!
        capacity = memory.count
    }

    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    mutating func put(_ byte: UInt8) {
        precondition(count < capacity, "LineBuilder: line longer than its memory")
        base[count] = byte
        count += 1
    }

    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(count + bytes.count <= capacity, "LineBuilder: line longer than its memory")
        guard let start = bytes.baseAddress else { return }
        (base + count).update(from: start, count: bytes.count)
        count += bytes.count
    }

    mutating func put(_ string: String) {
        var string = string
        string.withUTF8 { put($0) }
    }

    mutating func put(_ text: StaticString) {
        put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Builds a line of at most `maximumLength` bytes (on the stack when small) and hands over its bytes.
    static func build<Result>(
        maximumLength: Int, _ fill: (inout LineBuilder) -> Void,
        then use: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { memory in
            var line = LineBuilder(memory)
            fill(&line)
            return use(line.written)
        }
    }
}
