/// What a photo says about itself, for its page: the camera, the exposure, when it was taken, and the
/// captions its file carries. Every field is optional; a missing or damaged value is simply nil.
/// Never holds a position: the GPS IFD is not read (see ExifParser).
public struct ExifFacts: Sendable, Equatable {
    /// IFD0 Make and Model, as written ("NIKON CORPORATION", "NIKON Z 6"); `cameraName` joins them.
    public var make: String?
    public var model: String?
    /// Exif LensModel.
    public var lens: String?
    /// Exif FocalLength, in millimetres (as on the lens, not the 35 mm equivalent).
    public var focalLength: Double?
    /// Exif FNumber: 4 for ƒ/4.
    public var fNumber: Double?
    public var exposureTime: ExposureTime?
    /// Exif PhotographicSensitivity (ISOSpeedRatings before EXIF 2.3).
    public var iso: Int?
    /// Exif DateTimeOriginal, with OffsetTimeOriginal when present.
    public var dateTaken: ExifDateTime?
    /// IFD0 ImageDescription. Cameras often fill it with a placeholder; `caption` leaves those out.
    public var imageDescription: String?
    /// The PNG text chunks with keyword "Description" and "Title".
    public var pngDescription: String?
    public var pngTitle: String?
    /// IFD0 Artist (creator), Copyright (rights) and Windows' Rating (0x4746, 0 to 5).
    public var artist: String?
    public var copyright: String?
    public var rating: Int?
    /// The Apple MakerNote's content identifier (a Live Photo's still), capitals.
    public var contentIdentifier: String?

    public init(make: String? = nil, model: String? = nil, lens: String? = nil, focalLength: Double? = nil,
                fNumber: Double? = nil, exposureTime: ExposureTime? = nil, iso: Int? = nil,
                dateTaken: ExifDateTime? = nil, imageDescription: String? = nil, pngDescription: String? = nil,
                pngTitle: String? = nil) {
        self.make = make
        self.model = model
        self.lens = lens
        self.focalLength = focalLength
        self.fNumber = fNumber
        self.exposureTime = exposureTime
        self.iso = iso
        self.dateTaken = dateTaken
        self.imageDescription = imageDescription
        self.pngDescription = pngDescription
        self.pngTitle = pngTitle
    }

    public var isEmpty: Bool { self == ExifFacts() }
}
