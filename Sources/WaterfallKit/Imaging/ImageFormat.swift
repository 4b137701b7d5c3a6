import CImageIO

/// The formats Waterfall reads (and, for derived images, writes: JPEG, PNG, and WebP for animations). TIFF
/// and BMP are read only: they are published through their derived images.
/// Everything else is named (for messages) by `SniffedFormat`. A video is read as `video` (whatever its
/// container: `ImageHeader.video` says) and published as `mp4` or `webm`.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case jpeg
    case png
    case heic
    case avif
    case webp
    case gif
    case tiff
    case bmp
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
        case .tiff: ".tif"
        case .bmp: ".bmp"
        case .video, .mp4: ".mp4"
        case .webm: ".webm"
        }
    }

    /// Extensions of video files (read by `VideoProbe`): phones' MP4 and MOV, the web's WebM and Ogg, and the
    /// containers cameras and camcorders wrote (AVI, MPEG transport and program streams, Windows Media, Flash).
    static let videoExtensions: Set<String> = ["mp4", "m4v", "mov", "qt", "3gp", "3g2", "webm", "mkv", "avi", "ogv", "mts", "m2ts",
                                                "mpg", "mpeg", "vob", "wmv", "asf", "flv"]

    /// Whether a file name already says this format (`photo.JPEG` says JPEG).
    func isNamed(by fileName: String) -> Bool {
        let lower = fileName.lowercased()
        switch self {
        case .jpeg: return lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg")
        case .heic: return lower.hasSuffix(".heic") || lower.hasSuffix(".heif")
        case .tiff: return lower.hasSuffix(".tif") || lower.hasSuffix(".tiff")
        case .video: return Self.videoExtensions.contains { lower.hasSuffix("." + $0) }
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
