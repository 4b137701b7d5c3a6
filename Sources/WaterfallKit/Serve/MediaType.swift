/// The `Content-Type` of each kind of file a site holds, by its extension.
enum MediaType {
    static func of(_ name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        switch name[name.index(after: dot)...].lowercased() {
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json": return "application/json"
        case "xml": return "application/xml"
        case "atom": return "application/atom+xml"
        case "txt": return "text/plain; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "avif": return "image/avif"
        case "heic", "heif": return "image/heif"
        case "tif", "tiff": return "image/tiff"
        case "bmp": return "image/bmp"
        case "ico": return "image/x-icon"
        case "mp4", "m4v": return "video/mp4"
        case "mov": return "video/quicktime"
        case "webm": return "video/webm"
        case "ogv": return "video/ogg"
        case "vtt": return "text/vtt"
        case "woff2": return "font/woff2"
        case "woff": return "font/woff"
        case "zip": return "application/zip"
        case "webmanifest": return "application/manifest+json"
        default: return "application/octet-stream"
        }
    }
}
