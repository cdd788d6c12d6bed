import Foundation
import MockdSystem
import Testing
import TestSupport

/// The one directory walk the loader and the file watcher share.
@Suite(.timeLimit(.minutes(1)))
struct DirectoryWalkerTests {
    /// Every visited entry as "relative path (kind)", in visit order, descending everywhere.
    private func visits(_ root: String, options: DirectoryWalker.Options = .init()) -> [String] {
        var seen: [String] = []
        DirectoryWalker.walk(root, options: options) { entry in
            seen.append("\(entry.relativePath) (\(entry.kind))")
            return .descend
        }
        return seen
    }

    @Test func visitsEveryEntryBelowTheRootWithItsRelativePathAndKind() throws {
        try withTemporaryFolder(["a.json": "{}", "sub/b.json": "{}", "sub/deeper/c.json": "{}"]) { folder in
            #expect(
                visits(folder.path).sorted() == [
                    "a.json (regularFile)", "sub (folder)", "sub/b.json (regularFile)",
                    "sub/deeper (folder)", "sub/deeper/c.json (regularFile)",
                ])
            var paths: [String] = []
            DirectoryWalker.walk(folder.path + "/sub") { entry in
                paths.append(entry.path)
                #expect(entry.depth == (entry.name == "c.json" ? 1 : 0))
                return .descend
            }
            #expect(paths.sorted() == [folder.path + "/sub/b.json", folder.path + "/sub/deeper", folder.path + "/sub/deeper/c.json"])
        }
    }

    @Test func skipsHiddenEntriesUnlessAskedAndNeverDescendsIntoThem() throws {
        try withTemporaryFolder(["a.json": "{}", ".git/objects/x": "o", "sub/.swp": "s"]) { folder in
            #expect(visits(folder.path).sorted() == ["a.json (regularFile)", "sub (folder)"])
            #expect(
                visits(folder.path, options: .init(includeHidden: true)).sorted()
                    == [".git (folder)", "a.json (regularFile)", "sub (folder)", "sub/.swp (regularFile)"])
        }
    }

    @Test func followsLinksAndTellsWhatTheyPointTo() throws {
        try withTemporaryFolder(["shared/users/u.json": "{}", "root/file.json": "{}"]) { folder in
            #expect(symlink(folder.path + "/shared", folder.path + "/root/linked") == 0)
            #expect(symlink(folder.path + "/root/file.json", folder.path + "/root/alias.json") == 0)
            #expect(symlink(folder.path + "/nowhere", folder.path + "/root/dangling") == 0)
            #expect(
                visits(folder.path + "/root").sorted() == [
                    "alias.json (regularFile)", "dangling (other)", "file.json (regularFile)",
                    "linked (folder)", "linked/users (folder)", "linked/users/u.json (regularFile)",
                ])
        }
    }

    @Test func aLinkCycleEndsAtTheDepthLimitOrAtTheFirstRevisit() throws {
        try withTemporaryFolder(["root/a.json": "{}"]) { folder in
            let root = folder.path + "/root"
            #expect(symlink(".", root + "/again") == 0)
            // Without a visited set: "again/again/…" until the depth limit (or the kernel's own
            // limit on links in one path, 40 on Linux, comes first), then it stops.
            let deep = visits(root).filter { $0.hasSuffix("a.json (regularFile)") }
            #expect(deep.count > 1 && deep.count <= DirectoryWalker.maxDepth, "\(deep.count)")
            #expect(deep.contains("again/again/a.json (regularFile)"))
            // With one: the link is visited (as a revisit) but not walked again.
            var visited: Set<FileID> = []
            var info = stat()
            #expect(stat(root, &info) == 0)
            visited.insert(FileID(info))
            var seen: [String] = []
            DirectoryWalker.walk(root, visited: &visited) { entry in
                seen.append(entry.relativePath + (entry.isRevisit ? " (revisit)" : ""))
                return .descend
            }
            #expect(seen.sorted() == ["a.json", "again (revisit)"])
        }
    }

    @Test func skipAndStopAreHonouredAndFoldersOnlyLeavesFilesOut() throws {
        try withTemporaryFolder(["a/x.json": "{}", "b/y.json": "{}", "c.json": "{}"]) { folder in
            var seen: [String] = []
            DirectoryWalker.walk(folder.path) { entry in
                seen.append(entry.relativePath)
                return entry.name == "a" ? .skip : .descend
            }
            #expect(seen.sorted() == ["a", "b", "b/y.json", "c.json"])

            var count = 0
            let finished = DirectoryWalker.walk(folder.path) { _ in
                count += 1
                return .stop
            }
            #expect(!finished)
            #expect(count == 1)

            #expect(visits(folder.path, options: .init(foldersOnly: true)).sorted() == ["a (folder)", "b (folder)"])
        }
    }

    @Test func statEveryEntryGivesSizes() throws {
        try withTemporaryFolder(["five.txt": "12345"]) { folder in
            var sizes: [String: Int] = [:]
            DirectoryWalker.walk(folder.path, options: .init(statEveryEntry: true)) { entry in
                sizes[entry.name] = entry.info.map { Int($0.st_size) }
                return .descend
            }
            #expect(sizes == ["five.txt": 5])
        }
    }

    @Test func aMissingRootIsAnEmptyWalk() {
        var count = 0
        #expect(
            DirectoryWalker.walk("/mockd-no-such-folder") { _ in
                count += 1; return .descend
            })
        #expect(count == 0)
        #expect(!DirectoryWalker.isFolder("/mockd-no-such-folder"))
    }
}
