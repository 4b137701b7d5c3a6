import CImageIO

/// Reads a photo's EXIF facts and PNG captions: CImageIO fetches the bytes (JPEG up to SOS, PNG up to IDAT,
/// no pixels decoded), ExifParser and ExifText make them facts. Never throws: a missing, damaged or
/// unreadable file gives empty or partial facts. Reentrant, so photos can be read in parallel.
public struct ExifReader: Sendable {
    /// The bytes CImageIO hands over, before any parsing.
    struct RawMetadata: Sendable, Equatable {
        var exif: [UInt8] = []
        var description: [UInt8] = []
        var descriptionTruncated = false
        var title: [UInt8] = []
        var titleTruncated = false
        /// What XMP and IPTC say (`MetadataRecords`).
        var records: [UInt8] = []
        var recordsTruncated = false
    }

    /// Room for the largest Exif payload a JPEG holds (65,527 bytes); PNG eXIf is cut to the same.
    static let exifCapacity = 65_536
    /// Room for every record the C readers give at their limits (500 keywords of 256 bytes, each source).
    static let recordsCapacity = 320 * 1024

    public init() {}

    public func read(path: String) -> ExifFacts {
        facts(from: raw(path: path))
    }

    public func read(bytes: [UInt8]) -> ExifFacts {
        facts(from: raw(bytes: bytes))
    }

    func raw(path: String) -> RawMetadata {
        Self.collect { wf_read_metadata_path(path, $0) }
    }

    func raw(bytes: [UInt8]) -> RawMetadata {
        bytes.withUnsafeBufferPointer { input in
            Self.collect { wf_read_metadata_memory(input.baseAddress, input.count, $0) }
        }
    }

    func facts(from raw: RawMetadata) -> ExifFacts {
        var facts = ExifParser.facts(tiff: raw.exif)
        facts.pngDescription = ExifText.decode(raw.description[...], truncated: raw.descriptionTruncated)
        facts.pngTitle = ExifText.decode(raw.title[...], truncated: raw.titleTruncated)
        return facts
    }

    /// One buffer, split three ways: the Exif payload, then the two texts (each cut at the caption limit);
    /// the records in a second.
    static func collect(_ read: (UnsafeMutablePointer<wf_metadata>) -> Void) -> RawMetadata {
        let text = ExifText.captionLimit
        var storage = [UInt8](repeating: 0, count: Self.exifCapacity + 2 * text)
        var records = [UInt8](repeating: 0, count: Self.recordsCapacity)
        var metadata = wf_metadata()
        storage.withUnsafeMutableBufferPointer { buffer in
            records.withUnsafeMutableBufferPointer { recordBuffer in
                let base = buffer.baseAddress!
                metadata.exif.bytes = base
                metadata.exif.capacity = Self.exifCapacity
                metadata.description.bytes = base + Self.exifCapacity
                metadata.description.capacity = text
                metadata.title.bytes = base + Self.exifCapacity + text
                metadata.title.capacity = text
                metadata.records.bytes = recordBuffer.baseAddress
                metadata.records.capacity = recordBuffer.count
                read(&metadata)
            }
        }
        let titleStart = Self.exifCapacity + text
        return RawMetadata(
            exif: Array(storage[0..<metadata.exif.length]),
            description: Array(storage[Self.exifCapacity..<Self.exifCapacity + metadata.description.length]),
            descriptionTruncated: metadata.description.total > metadata.description.length,
            title: Array(storage[titleStart..<titleStart + metadata.title.length]),
            titleTruncated: metadata.title.total > metadata.title.length,
            records: Array(records[0..<metadata.records.length]),
            recordsTruncated: metadata.records.total > metadata.records.length
        )
    }
}
