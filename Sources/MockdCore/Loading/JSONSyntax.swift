import Foundation

/// Checks that bytes are JSON and, when they are not, says where the problem is as
/// `line L, column C` (Foundation's parser reports a byte offset or a line/column in its text).
enum JSONSyntax {
    static func problem(in data: Data) -> (location: String?, message: String)? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            return describe(error, data: data)
        }
    }

    static func describe(_ error: any Error, data: Data) -> (location: String?, message: String) {
        let nsError = error as NSError
        var text = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
        if data.isEmpty { return ("line 1, column 1", "invalid JSON: the file is empty") }
        // "… around line 3, column 7." — lift the place out so it reads like every other diagnostic.
        if let range = text.range(of: #"around line (\d+), column (\d+)\.?"#, options: .regularExpression) {
            let place = text[range].replacingOccurrences(of: "around ", with: "").trimmingCharacters(in: CharacterSet(charactersIn: "."))
            text.removeSubrange(range)
            return (place, "invalid JSON: " + text.trimmingCharacters(in: .whitespaces))
        }
        if let index = nsError.userInfo["NSJSONSerializationErrorIndex"] as? Int {
            return (lineAndColumn(of: index, in: data), "invalid JSON: " + text)
        }
        return (nil, "invalid JSON: " + text)
    }

    static func lineAndColumn(of offset: Int, in data: Data) -> String {
        var line = 1, column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return "line \(line), column \(column)"
    }
}
