/// Relative URLs for files the site writes. Every path segment is percent-encoded byte by byte (UTF-8),
/// keeping only RFC 3986's unreserved characters, so names with spaces, `#`, `?`, `%`, `&`, quotes, `<`
/// or non-ASCII letters work from a web server and from `file://` alike.
enum URLPath {
    static func encode(segment: String) -> String { encode(segment, keepingSlashes: false) }

    /// A relative path ("photos/IMG 1.jpg") as a URL ("photos/IMG%201.jpg").
    static func encode(path: String) -> String { encode(path, keepingSlashes: true) }

    private static func encode(_ text: String, keepingSlashes: Bool) -> String {
        var text = text, url: [UInt8] = []
        text.withUTF8 { appendEncoded($0, to: &url, keepingSlashes: keepingSlashes) }
        return String(decoding: url, as: UTF8.self)
    }

    /// Appends `bytes` percent-encoded; with `keepingSlashes` they are a path whose slashes stay slashes
    /// (each segment encoded on its own), else one segment.
    static func appendEncoded(_ bytes: UnsafeBufferPointer<UInt8>, to url: inout [UInt8], keepingSlashes: Bool) {
        url.reserveCapacity(url.count + bytes.count)
        for byte in bytes {
            if isUnreserved(byte) || (keepingSlashes && byte == UInt8(ascii: "/")) {
                url.append(byte)
            } else {
                url.append(UInt8(ascii: "%"))
                url.append(hexDigits[Int(byte >> 4)])
                url.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

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
