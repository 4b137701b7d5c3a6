/// What a photo's own bytes say of it, as the cache keeps it: the camera, and the metadata its file
/// carries (merged from EXIF, IPTC and XMP); sidecar files are read apart, each build.
struct PhotoFacts: Sendable, Equatable {
    /// "Canon EOS R5 · RF24-105mm F4 L IS USM · 50 mm · ƒ/4 · 1/250 s · ISO 400".
    var summary: String?
    /// Title, description, date taken and the rest, from the file itself.
    var metadata = PhotoMetadata()
    /// Apple's content identifier, which a Live Photo's still and clip share.
    var contentIdentifier: String?
    /// Whether the image may be see-through (an alpha channel, a transparent GIF colour), as its header says:
    /// then no placeholder colour is painted behind it, where it would show once the image is there.
    var seeThrough = false
    /// What the reading found wrong (`its XMP is not used: …`): said when the file is read, never cached.
    var warnings: [String] = []

    init() {}

    /// A video's: when it was recorded, as its container says (`creation_time`, UTC), if it says.
    init(video: VideoFacts) {
        contentIdentifier = video.contentIdentifier
        guard let date = video.creationTime.flatMap(Self.recordingDate) else { return }
        metadata = PhotoMetadata(.container, taken: PhotoMetadata.Taken(text: date.text, number: date.number))
    }

    /// `2024-05-17T08:30:12.000000Z` as the text and number a photo's date has.
    static func recordingDate(_ text: String) -> (text: String, number: Int)? {
        let digits = text.utf8.map { $0 }
        guard digits.count >= 19 else { return nil }
        func field(_ from: Int, _ length: Int) -> Int? {
            var value = 0
            for byte in digits[from..<(from + length)] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = field(0, 4), let month = field(5, 2), let day = field(8, 2), let hour = field(11, 2),
              let minute = field(14, 2), let second = field(17, 2), (1900...9999).contains(year), (1...12).contains(month),
              (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        let shown = String(decoding: digits[0..<10], as: UTF8.self) + " " + String(decoding: digits[11..<19], as: UTF8.self)
        return (shown, ((year * 100 + month) * 100 + day) * 1_000_000 + hour * 10_000 + minute * 100 + second)
    }

    init(_ exif: ExifFacts) {
        summary = exif.summary
        contentIdentifier = exif.contentIdentifier
        let taken = exif.dateTaken.map { date in
            PhotoMetadata.Taken(text: date.description, number: ((date.year * 100 + date.month) * 100 + date.day) * 1_000_000
                                    + date.hour * 10_000 + date.minute * 100 + date.second)
        }
        metadata = PhotoMetadata(.exif, description: exif.caption, rating: exif.rating, creator: exif.artist,
                                 rights: exif.copyright, taken: taken)
    }
}
