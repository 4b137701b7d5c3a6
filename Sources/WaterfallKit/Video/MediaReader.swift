/// Reads the header of a photo or a video: the image readers first (a video's first bytes make them refuse
/// it at once, saying so), then, for a video, `VideoProbe` on the file opened afresh and checked.
public struct MediaReader: Sendable {
    public var images: HeaderReader
    var videos: VideoTools?

    public init(images: HeaderReader = HeaderReader()) {
        self.images = images
        videos = VideoTools.find()
    }

    init(images: HeaderReader, videos: VideoTools?) {
        self.images = images
        self.videos = videos
    }

    /// `status`, when given, is the file's as the caller found it (and hashed it): a video changed since is not probed.
    func read(path: String, expecting status: FileStatus? = nil) -> Result<ImageHeader, ImageReadError> {
        video(images.read(path: path), path: path, status: status)
    }

    /// The file's header from its bytes (already read whole), for a photo; a video is probed from `path`.
    func read(bytes: [UInt8], path: String, expecting status: FileStatus? = nil) -> Result<ImageHeader, ImageReadError> {
        video(images.read(bytes: bytes), path: path, status: status)
    }

    private func video(_ image: Result<ImageHeader, ImageReadError>, path: String,
                       status: FileStatus?) -> Result<ImageHeader, ImageReadError> {
        guard case .failure(let refusal) = image, refusal.isVideo else { return image }
        guard let videos else { return .failure(ImageReadError(.unsupported, VideoTools.missing)) }
        let file: OpenFile
        do {
            file = try OpenFile.open(path)
        } catch {
            return .failure(ImageReadError(.io, error.reason))
        }
        if let status, file.status != status { return .failure(ImageReadError(.io, "changed while it was read; it is read again next time")) }
        return VideoProbe(tools: videos, maxPixels: images.maxPixels).read(file)
    }
}
