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
        collect(count: 1) { read($0) }[0]
    }

    /// The same for `count` files read at once (`read` gets an array of `count`): each its own slices of the
    /// two buffers, which are not zeroed, since only what the readers wrote is kept.
    static func collect(count: Int, _ read: (UnsafeMutablePointer<wf_metadata>) -> Void) -> [RawMetadata] {
        let text = ExifText.captionLimit, stride = Self.exifCapacity + 2 * text
        var storage = [UInt8](unsafeUninitializedCapacity: stride * count) { _, made in made = stride * count }
        var records = [UInt8](unsafeUninitializedCapacity: Self.recordsCapacity * count) { _, made in made = Self.recordsCapacity * count }
        var metadata = [wf_metadata](repeating: wf_metadata(), count: count)
        storage.withUnsafeMutableBufferPointer { buffer in
            records.withUnsafeMutableBufferPointer { recordBuffer in
                for index in 0..<count {
                    let base = buffer.baseAddress! + index * stride
                    metadata[index].exif.bytes = base
                    metadata[index].exif.capacity = Self.exifCapacity
                    metadata[index].description.bytes = base + Self.exifCapacity
                    metadata[index].description.capacity = text
                    metadata[index].title.bytes = base + Self.exifCapacity + text
                    metadata[index].title.capacity = text
                    metadata[index].records.bytes = recordBuffer.baseAddress! + index * Self.recordsCapacity
                    metadata[index].records.capacity = Self.recordsCapacity
                }
                metadata.withUnsafeMutableBufferPointer { read($0.baseAddress!) }
            }
        }
        return (0..<count).map { index in
            let m = metadata[index], at = index * stride, titleStart = at + Self.exifCapacity + text
            let recordsAt = index * Self.recordsCapacity
            return RawMetadata(
                exif: Array(storage[at..<at + m.exif.length]),
                description: Array(storage[(at + Self.exifCapacity)..<(at + Self.exifCapacity + m.description.length)]),
                descriptionTruncated: m.description.total > m.description.length,
                title: Array(storage[titleStart..<titleStart + m.title.length]),
                titleTruncated: m.title.total > m.title.length,
                records: Array(records[recordsAt..<recordsAt + m.records.length]),
                recordsTruncated: m.records.total > m.records.length
            )
        }
    }
}
