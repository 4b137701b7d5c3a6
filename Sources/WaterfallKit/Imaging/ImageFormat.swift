import CImageIO

/// The two formats Waterfall reads. Everything else is named (for messages) by `SniffedFormat`.
public enum ImageFormat: String, Sendable, Codable {
    case jpeg
    case png
}

/// What a file's first bytes say it is, whether or not Waterfall reads it.
struct SniffedFormat: Sendable, Equatable {
    let raw: wf_format

    /// The readable format, if this is one.
    var readable: ImageFormat? {
        switch raw {
        case WF_FORMAT_JPEG: .jpeg
        case WF_FORMAT_PNG: .png
        default: nil
        }
    }

    /// A short human name for messages such as `unsupported format (GIF)`; nil when unrecognised.
    var name: String? {
        switch raw {
        case WF_FORMAT_JPEG: "JPEG"
        case WF_FORMAT_PNG: "PNG"
        case WF_FORMAT_PNG_CGBI: "Apple CgBI PNG"
        case WF_FORMAT_GIF: "GIF"
        case WF_FORMAT_WEBP: "WebP"
        case WF_FORMAT_HEIC: "HEIC"
        case WF_FORMAT_AVIF: "AVIF"
        case WF_FORMAT_BMP: "BMP"
        case WF_FORMAT_TIFF: "TIFF"
        case WF_FORMAT_JPEG_XL: "JPEG XL"
        case WF_FORMAT_JPEG_2000: "JPEG 2000"
        case WF_FORMAT_ICO: "ICO"
        case WF_FORMAT_PSD: "PSD"
        case WF_FORMAT_PDF: "PDF"
        case WF_FORMAT_SVG: "SVG"
        case WF_FORMAT_QOI: "QOI"
        default: nil
        }
    }
}
