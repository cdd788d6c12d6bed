/// Mock files by name: what a request looks up first, so the lookup must be cheap.
///
/// A request's file name (`mock_api_users_get.json` for `GET /api/users`) is hashed and
/// compared straight from its method and path, without building the name: building it, hashing
/// it as a `String` and probing a `Dictionary` costs about twice as much, and a miss more (it
/// compares a string at every occupied bucket it probes). Here: an open-addressing table
/// of slots that hold part of the name's hash beside the file's index, so a probe compares
/// integers and compares bytes only on a hash match; at most half the slots are used. The names'
/// bytes are kept once more, packed in one buffer: comparing one touches no `String` (with
/// 10,000 files, retaining a cold name's storage would be a cache miss on every request).
///
/// Names with a byte past ASCII are kept in a `[String: Int]` instead, so that canonically
/// equivalent names match as Swift compares them (`é` composed or not); a miss in the table
/// looks there too when it holds any. An ASCII name is matched byte for byte, so the three
/// characters whose canonical form is ASCII (the Kelvin sign, U+037E, U+1FEF) in a request do not
/// find an ASCII-named file; everything else matches as before.
package struct MockFileTable: Sendable, ExpressibleByDictionaryLiteral {
    /// Every file, in the order it was inserted.
    package private(set) var values: [MockFile] = []
    /// Power-of-two count (or empty). 0: empty; otherwise the hash's upper 32 bits, then the
    /// file's index + 1 in the lower 32.
    private var slots: [UInt64] = []
    /// Every name's bytes, one after another; name `i` is `nameBytes[nameEnds[i - 1]..<nameEnds[i]]`.
    private var nameBytes: [UInt8] = []
    private var nameEnds: [UInt32] = []
    /// Files whose names are not all ASCII, by name.
    private var others: [String: Int] = [:]

    package init() {}

    package init(dictionaryLiteral elements: (String, MockFile)...) {
        for (name, file) in elements {
            precondition(name == file.name, "MockFileTable: a file is kept under its own name")
            insert(file)
        }
    }

    /// The file names.
    package var keys: LazyMapSequence<[MockFile], String> { values.lazy.map(\.name) }
    package var count: Int { values.count }
    package var isEmpty: Bool { values.isEmpty }

    package mutating func reserveCapacity(_ count: Int) {
        values.reserveCapacity(count)
        nameEnds.reserveCapacity(count)
        if Self.slotCount(for: count) > slots.count { rebuild(slotCount: Self.slotCount(for: count)) }
    }

    /// The table without the files at `relativePaths` (rebuilt: removal is rare, at load only).
    func removing(_ relativePaths: Set<String>) -> MockFileTable {
        guard values.contains(where: { relativePaths.contains($0.relativePath) }) else { return self }
        var table = MockFileTable()
        for file in values where !relativePaths.contains(file.relativePath) { table.insert(file) }
        return table
    }

    /// Adds `file` under its name, replacing a file of the same name.
    package mutating func insert(_ file: MockFile) {
        if let index = index(of: file.name) {
            values[index] = file
            return
        }
        values.append(file)
        let index = values.count - 1
        var name = file.name
        name.withUTF8 { nameBytes.append(contentsOf: $0) }
        nameEnds.append(UInt32(nameBytes.count))
        guard let hash = name.withUTF8({ Self.asciiHash($0) }) else {
            others[file.name] = index
            return
        }
        if Self.slotCount(for: values.count) > slots.count {
            rebuild(slotCount: Self.slotCount(for: values.count))  // places every ASCII name, this one included
        } else {
            place(hash: hash, index: index)
        }
    }

    /// The file of this name (`mock_api_users_get.json`).
    package subscript(name: String) -> MockFile? {
        index(of: name).map { values[$0] }
    }

    /// The response of the file a request for `method` and `path` names: only the response is
    /// read from the entry (the names are cold memory with 10,000 files).
    package func response(method: String, path: String) -> PreparedResponse? {
        index(method: method, path: path).map { values[$0].response }
    }

    /// The file a request for `method` and `path` names (see `MockFileName.forRequest`),
    /// found without building the name.
    package func file(method: String, path: String) -> MockFile? {
        index(method: method, path: path).map { values[$0] }
    }

    private func index(method: String, path: String) -> Int? {
        var method = method, path = path
        let found = path.withUTF8 { pathBytes in
            method.withUTF8 { methodBytes in
                let name = MockFileName.RequestName(path: pathBytes, method: methodBytes)
                return name.hash().flatMap { hash in find(hash: hash) { stored in name.equals(stored) } }
            }
        }
        return found ?? other(MockFileName.forRequest(method: method, path: path))
    }

    // MARK: - The table

    private func index(of name: String) -> Int? {
        var name = name
        let found = name.withUTF8 { bytes in
            Self.asciiHash(bytes).flatMap { hash in
                find(hash: hash) { stored in stored.count == bytes.count && stored.elementsEqual(bytes) }
            }
        }
        return found ?? other(name)
    }

    /// Not in the table (or not ASCII): a name past ASCII, compared as `String` compares
    /// (an ASCII name canonically equal to one of these is found here too). Built only when any exist.
    private func other(_ name: @autoclosure () -> String) -> Int? {
        others.isEmpty ? nil : others[name()]
    }

    /// The index of the file whose hash is `hash` and whose name bytes `matches` accepts.
    private func find(hash: UInt64, _ matches: (UnsafeBufferPointer<UInt8>) -> Bool) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        let tag = hash >> 32
        var position = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = slots[position]
            if slot == 0 { return nil }
            if slot >> 32 == tag {
                let index = Int(slot & 0xFFFF_FFFF) - 1
                let start = index == 0 ? 0 : Int(nameEnds[index - 1])
                let end = Int(nameEnds[index])
                if nameBytes.withUnsafeBufferPointer({ matches(UnsafeBufferPointer(rebasing: $0[start..<end])) }) { return index }
            }
            position = (position + 1) & mask
        }
    }

    private mutating func place(hash: UInt64, index: Int) {
        let mask = slots.count - 1
        var position = Int(truncatingIfNeeded: hash) & mask
        while slots[position] != 0 { position = (position + 1) & mask }
        slots[position] = (hash >> 32) << 32 | UInt64(index + 1)
    }

    private mutating func rebuild(slotCount: Int) {
        slots = Array(repeating: 0, count: slotCount)
        for index in values.indices {
            var name = values[index].name
            if let hash = name.withUTF8({ Self.asciiHash($0) }) { place(hash: hash, index: index) }
        }
    }

    /// At most half the slots used: probes stay short, misses included.
    private static func slotCount(for count: Int) -> Int {
        var slots = 16
        while slots < count * 2 { slots *= 2 }
        return slots
    }

    // MARK: - Hashing

    /// FNV-1a (64-bit) over bytes fed one at a time: one xor and one multiply a byte.
    struct Hasher64 {
        private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
        /// Any byte fed was past ASCII.
        private(set) var sawNonASCII = false

        mutating func feed(_ byte: UInt8) {
            sawNonASCII = sawNonASCII || byte >= 0x80
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }

        /// `finished`, or nil when a byte was past ASCII (such names live in `others`).
        var asciiFinished: UInt64? { sawNonASCII ? nil : finished }

        /// The hash, spread over the upper bits too (the slot index uses the lower, the tag the upper).
        var finished: UInt64 {
            var mixed = value
            mixed ^= mixed >> 33
            mixed &*= 0xff51_afd7_ed55_8ccd
            mixed ^= mixed >> 33
            return mixed
        }
    }

    /// Nil when a byte is past ASCII (such names live in `others`).
    static func asciiHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var hasher = Hasher64()
        for byte in bytes { hasher.feed(byte) }
        return hasher.asciiFinished
    }
}

extension MockFileName.RequestName {
    /// The name's hash, as `MockFileTable.asciiHash` of the built name; nil past ASCII.
    func hash() -> UInt64? {
        var hasher = MockFileTable.Hasher64()
        _ = forEachByte { byte in
            hasher.feed(byte)
            return true
        }
        return hasher.asciiFinished
    }

    /// Whether `name` is this name, byte for byte.
    func equals(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count == count else { return false }
        var at = 0
        return forEachByte { byte in
            defer { at += 1 }
            return name[at] == byte
        }
    }
}
