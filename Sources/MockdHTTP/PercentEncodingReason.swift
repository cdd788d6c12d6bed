#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RequestState {
    /// What the 400 for a bad percent-encoding says, naming what was sent: `url` is the path as
    /// libmicrohttpd hands it over, which keeps a bad `%zz` as is and cuts the path at a `%00`.
    static func percentEncodingReason(_ url: UnsafePointer<CChar>) -> String {
        let bytes = Array(UnsafeRawBufferPointer(start: url, count: strlen(url)))
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                let sequence = bytes[index..<min(index + 3, bytes.count)]
                if sequence.count < 3 || !sequence.dropFirst().allSatisfy(isHexDigit) {
                    return "the URL has an invalid percent-encoding: '\(String(decoding: sequence, as: UTF8.self))' (% must be followed by two hex digits)"
                }
                index += 3
                continue
            }
            index += 1
        }
        return "the URL has %00 (a NUL byte), which no path may contain"
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 70) || (byte >= 97 && byte <= 102)
    }
}
