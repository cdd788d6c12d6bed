import Foundation
import MockdSystem
import Testing
import TestSupport

/// The recorder's writes: whole or not at all, never over a file unless asked, no temp left.
@Suite(.timeLimit(.minutes(1)))
struct AtomicFileTests {
    private func inode(_ path: String) -> UInt64? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    @Test func createsAFileAndReplacesItByRename() throws {
        try withTemporaryFolder { folder in
            let path = folder.child("a.json")
            try AtomicFile.write(Array("one".utf8), to: path, replace: false)
            #expect(folder.read("a.json") == "one")
            let first = try #require(inode(path))
            try AtomicFile.write(Array("two".utf8), to: path, replace: true)
            #expect(folder.read("a.json") == "two")
            // A new file renamed over the old one, not the old one rewritten in place.
            #expect(inode(path) != first)
            #expect(folder.files() == ["a.json"])
        }
    }

    @Test func neverOverwritesSilently() throws {
        try withTemporaryFolder(["a.json": "mine"]) { folder in
            let error = #expect(throws: AtomicFile.WriteError.self) {
                try AtomicFile.write(Array("theirs".utf8), to: folder.child("a.json"), replace: false)
            }
            #expect(error?.alreadyExists == true)
            #expect(error?.reason == String(cString: strerror(EEXIST)))
            #expect(folder.read("a.json") == "mine")
            // The temp file is gone too.
            #expect(folder.files() == ["a.json"])
        }
    }

    @Test func theTempFileIsRemovedWhenTheWriteFails() throws {
        try withTemporaryFolder(["taken/inside.json": "{}"]) { folder in
            // rename(2) cannot put a file over a folder that is not empty.
            #expect(throws: AtomicFile.WriteError.self) {
                try AtomicFile.write(Array("x".utf8), to: folder.child("taken"), replace: true)
            }
            #expect(folder.files() == ["taken/inside.json"])
            let hidden = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
            #expect(hidden.isEmpty)
        }
    }

    @Test func aMissingFolderSaysWhyInTheSystemsWords() throws {
        try withTemporaryFolder { folder in
            let error = #expect(throws: AtomicFile.WriteError.self) {
                try AtomicFile.write([], to: folder.child("no/such/folder.json"), replace: true)
            }
            #expect(error?.code == ENOENT)
            #expect(error?.reason == String(cString: strerror(ENOENT)))
            #expect(folder.files().isEmpty)
        }
    }

    @Test func writesEveryByteOfALargeFile() throws {
        try withTemporaryFolder { folder in
            let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            try AtomicFile.write(bytes, to: folder.child("big.bin"), replace: false)
            #expect(FileManager.default.contents(atPath: folder.child("big.bin")).map(Array.init) == bytes)
        }
    }
}
