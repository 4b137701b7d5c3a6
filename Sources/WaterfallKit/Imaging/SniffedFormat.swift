import CImageIO

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
        case WF_FORMAT_TIFF: .tiff
        case WF_FORMAT_BMP: .bmp
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
