import Foundation
import Logging
@testable import MockdHTTP
import Testing
import TestSupport

/// The log's two formats line by line, through a sink writing into a temporary file.
struct LogFormatTests {
    /// The lines `write` logs in `format`.
    static func lines(_ format: MockdLogHandler.Format, _ write: (LogSink, MockdLogHandler) -> Void) throws -> [String] {
        try withTemporaryFolder { folder in
            let path = folder.child("log")
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            try #require(fd >= 0)
            defer { close(fd) }
            let sink = LogSink(fd: fd)
            write(sink, MockdLogHandler(label: "test", format: format, sink: sink))
            sink.flush()
            return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        }
    }

    static let full = AccessRecord(
        method: "GET", path: "/api/users", status: 200, source: "file scenarios/empty/mock_api_users_get.json",
        durationMicroseconds: 1500, query: "page=2&sort=name", scenario: "empty", session: "sim-3")
    static let plain = AccessRecord(
        method: "GET", path: "/api/users", status: 200, source: "file users/mock_api_users_get.json",
        durationMicroseconds: 80, scenario: "default")
    static let miss = AccessRecord(
        method: "GET", path: "/api/nothing", status: 404, source: "404", repeatsStatus: true, durationMicroseconds: 80)

    /// `2026-11-23T18:00:00.123Z ` and the rest.
    static func withoutTimestamp(_ line: String) throws -> String {
        let timestamp = try Regex(#"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z "#)
        let match = try #require(line.firstMatch(of: timestamp), "no timestamp: \(line)")
        return String(line[match.range.upperBound...])
    }

    @Test func textAccessLines() throws {
        let lines = try Self.lines(.text) { sink, _ in
            let writer = AccessLogWriter(format: .text, sink: sink)
            writer.write(Self.full)
            writer.write(Self.plain)
            writer.write(Self.miss)
        }
        #expect(
            try lines.map(Self.withoutTimestamp) == [
                "GET /api/users?page=2&sort=name 200 file scenarios/empty/mock_api_users_get.json 1.500ms scenario=empty session=sim-3",
                "GET /api/users 200 file users/mock_api_users_get.json 0.080ms",
                // The 404 report's source is its status: said once.
                "GET /api/nothing 404 0.080ms",
            ])
        #expect(
            Self.full.description
                == "GET /api/users?page=2&sort=name 200 file scenarios/empty/mock_api_users_get.json 1.500ms scenario=empty session=sim-3")
    }

    @Test func jsonAccessLines() throws {
        let lines = try Self.lines(.json) { sink, _ in
            let writer = AccessLogWriter(format: .json, sink: sink)
            writer.write(Self.full)
            writer.write(Self.plain)
        }
        try #require(lines.count == 2)
        let full = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any], "\(lines[0])")
        #expect(full["level"] as? String == "info")
        #expect(full["message"] as? String == "request")
        #expect(full["method"] as? String == "GET")
        #expect(full["path"] as? String == "/api/users")
        #expect(full["query"] as? String == "page=2&sort=name")
        #expect(full["status"] as? Int == 200)
        #expect(full["source"] as? String == "file scenarios/empty/mock_api_users_get.json")
        #expect(full["durationMs"] as? Double == 1.5)
        #expect(full["scenario"] as? String == "empty")
        #expect(full["session"] as? String == "sim-3")
        #expect((full["time"] as? String)?.hasSuffix("Z") == true)
        let plain = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any], "\(lines[1])")
        // Said only when they say something.
        #expect(plain["query"] == nil && plain["scenario"] == nil && plain["session"] == nil, "\(lines[1])")
        #expect(Set(plain.keys) == ["time", "level", "message", "method", "path", "status", "source", "durationMs"])
    }

    @Test func otherLinesInBothFormats() throws {
        let text = try Self.lines(.text) { _, handler in
            var logger = Logger(label: "test", factory: { _ in handler })
            logger.logLevel = .info
            logger.warning("configuration problem", metadata: ["mockd.problem": "not served", "mockd.file": "a/b.json"])
        }
        // The message, then each field as key=value, by key.
        #expect(try text.map(Self.withoutTimestamp) == ["warning configuration problem mockd.file=a/b.json mockd.problem=not served"])
        let json = try Self.lines(.json) { _, handler in
            let logger = Logger(label: "test", factory: { _ in handler })
            logger.warning("a \"quoted\" word", metadata: ["path": "/x"])
        }
        try #require(json.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json[0].utf8)) as? [String: String], "\(json[0])")
        #expect(object["level"] == "warning")
        #expect(object["message"] == "a \"quoted\" word")
        #expect(object["path"] == "/x")
    }
}
