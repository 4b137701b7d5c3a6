/// Relative URLs for files the site writes. Every path segment is percent-encoded byte by byte (UTF-8),
/// keeping only RFC 3986's unreserved characters, so names with spaces, `#`, `?`, `%`, `&`, quotes, `<`
/// or non-ASCII letters work from a web server and from `file://` alike.
enum URLPath {
    static func encode(segment: String) -> String {
        var encoded = ""
        encoded.reserveCapacity(segment.utf8.count)
        for byte in segment.utf8 {
            if isUnreserved(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + hexDigits[Int(byte >> 4)] + hexDigits[Int(byte & 0x0F)]
            }
        }
        return encoded
    }

    /// A relative path ("photos/IMG 1.jpg") as a URL ("photos/IMG%201.jpg").
    static func encode(path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { encode(segment: String($0)) }
            .joined(separator: "/")
    }

    /// Appends `path` percent-encoded segment by segment: its slashes stay slashes.
    static func appendEncoded(_ path: UnsafeBufferPointer<UInt8>, to url: inout [UInt8]) {
        for byte in path {
            if isUnreserved(byte) || byte == UInt8(ascii: "/") {
                url.append(byte)
            } else {
                url.append(UInt8(ascii: "%"))
                url.append(hexBytes[Int(byte >> 4)])
                url.append(hexBytes[Int(byte & 0x0F)])
            }
        }
    }

    private static let hexBytes = Array("0123456789ABCDEF".utf8)

    private static let hexDigits = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
