import CImageIO

/// The formats Waterfall reads (and, for derived images, writes: JPEG, PNG, and WebP for animations).
/// Everything else is named (for messages) by `SniffedFormat`. A video is read as `video` (whatever its
/// container: `ImageHeader.video` says) and published as `mp4` or `webm`.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case jpeg
    case png
    case heic
    case avif
    case webp
    case gif
    case video
    case mp4
    case webm

    /// The extension a file of this format is written with (`.jpg`, not `.jpeg`).
    var fileExtension: String {
        switch self {
        case .jpeg: ".jpg"
        case .png: ".png"
        case .heic: ".heic"
        case .avif: ".avif"
        case .webp: ".webp"
        case .gif: ".gif"
        case .video, .mp4: ".mp4"
        case .webm: ".webm"
        }
    }

    /// Whether a file name already says this format (`photo.JPEG` says JPEG).
    func isNamed(by fileName: String) -> Bool {
        let lower = fileName.lowercased()
        switch self {
        case .jpeg: return lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg")
        case .heic: return lower.hasSuffix(".heic") || lower.hasSuffix(".heif")
        case .video: return Photo.videoExtensions.contains { lower.hasSuffix("." + $0) }
        default: return lower.hasSuffix(fileExtension)
        }
    }

    /// The format of a derived image the C encoders report.
    init?(output raw: wf_format) {
        switch raw {
        case WF_FORMAT_JPEG: self = .jpeg
        case WF_FORMAT_PNG: self = .png
        case WF_FORMAT_WEBP: self = .webp
        case WF_FORMAT_AVIF: self = .avif
        default: return nil
        }
    }
}

/// What a file's first bytes say it is, whether or not Waterfall reads it.
struct SniffedFormat: Sendable, Equatable {
    let raw: wf_format

    init(raw: wf_format) { self.raw = raw }

    /// What a file's first bytes say.
    init(_ first: [UInt8]) {
        raw = first.withUnsafeBufferPointer { wf_sniff($0.baseAddress, $0.count) }
    }

    /// The readable format, if this is one.
    var readable: ImageFormat? {
        switch raw {
        case WF_FORMAT_JPEG: .jpeg
        case WF_FORMAT_PNG: .png
        case WF_FORMAT_HEIC: .heic
        case WF_FORMAT_AVIF: .avif
        case WF_FORMAT_WEBP: .webp
        case WF_FORMAT_GIF: .gif
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
        case WF_FORMAT_VIDEO_ISO: "MP4/QuickTime video"
        case WF_FORMAT_VIDEO_MATROSKA: "Matroska/WebM video"
        case WF_FORMAT_VIDEO_AVI: "AVI video"
        case WF_FORMAT_VIDEO_OGG: "Ogg video"
        case WF_FORMAT_VIDEO_MPEG_TS: "MPEG transport stream video"
        case WF_FORMAT_VIDEO_MPEG_PS: "MPEG program stream video"
        case WF_FORMAT_VIDEO_ASF: "Windows Media video"
        case WF_FORMAT_VIDEO_FLV: "Flash video"
        default: nil
        }
    }

    /// A video container: read by `VideoProbe`, not by the image readers.
    var isVideo: Bool {
        [WF_FORMAT_VIDEO_ISO, WF_FORMAT_VIDEO_MATROSKA, WF_FORMAT_VIDEO_AVI, WF_FORMAT_VIDEO_OGG, WF_FORMAT_VIDEO_MPEG_TS,
         WF_FORMAT_VIDEO_MPEG_PS, WF_FORMAT_VIDEO_ASF, WF_FORMAT_VIDEO_FLV].contains(raw)
    }
}
