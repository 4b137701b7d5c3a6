/// The XMP sidecar beside a photo or a video: `IMG_1.jpg.xmp` (darktable's spelling) before `IMG_1.xmp`
/// (Lightroom's), found by name among the files the scan saw, opened through `InputFolder` (never through a
/// link), and parsed by the same C code as an embedded packet, in a decoder process (`DecoderPool.sidecar`).
/// A sidecar is never a photo: it is not reported as one that cannot be read.
enum XMPSidecar {
    /// Larger ones are refused before a byte is read (the C side checks again as it reads).
    static let maximumBytes = 4 << 20

    static func isSidecar(_ fileName: String) -> Bool { fileName.lowercased().hasSuffix(".xmp") }

    /// The names looked for, in order, beside `name` (a path relative to the input).
    static func candidates(for name: String) -> [String] {
        var stem = name
        if let dot = name.lastIndex(ofASCII: "."), !name[dot...].contains("/") { stem = String(name[..<dot]) }
        return [name + ".xmp", name + ".XMP", stem + ".xmp", stem + ".XMP"]
    }

    /// The reading of the first sidecar `sidecars` holds for `name`, or nil; what is wrong with it goes to `warn`.
    static func read(for name: String, sidecars: Set<[UInt8]>, input: InputFolder, decoders: DecoderPool,
                     warn: (String) -> Void) -> PhotoMetadata? {
        guard let found = candidates(for: name).first(where: { sidecars.contains(Array($0.utf8)) }) else { return nil }
        let fileName = FolderPath.lastComponent(of: found)
        let file: OpenFile
        do {
            file = try input.open(FolderPath.join(input.path, found))
        } catch {
            warn("its XMP sidecar \(fileName) is not used: \(error.reason)")
            return nil
        }
        guard file.status.size <= maximumBytes else {
            warn("its XMP sidecar \(fileName) is not used: it is larger than 4 MiB")
            return nil
        }
        switch decoders.sidecar(file) {
        case .failure(let failure):
            warn("its XMP sidecar \(fileName) is not used: \(failure.reason(format: "XMP"))")
            return nil
        case .success(let (bytes, truncated)):
            let records = MetadataRecords(bytes, truncated: truncated, xmp: .xmpSidecar, xmpName: "XMP sidecar \(fileName)")
            records.warnings.forEach(warn)
            return records.xmp
        }
    }
}
