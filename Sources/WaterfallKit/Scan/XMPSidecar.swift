/// The XMP sidecar beside a photo or a video: `IMG_1.jpg.xmp` (darktable's spelling) before `IMG_1.xmp`
/// (Lightroom's), found by name among the files the scan saw, opened through `InputFolder` (never through a
/// link), and parsed by the same C code as an embedded packet, in a decoder process (`DecoderPool.sidecar`).
/// A sidecar is never a photo: it is not reported as one that cannot be read. The build's scan takes an
/// unchanged sidecar's reading from the last build's memo (`SidecarMemo`) instead of a decoder.
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

    /// What reading a photo's sidecar gave: its reading, what the memo keeps of it (nil: not to be kept),
    /// and whether a decoder parsed it (not when the memo held it).
    struct Outcome: Sendable {
        var reading: PhotoMetadata?
        var memo: SidecarMemo.Item?
        var parsed = false
    }

    /// The reading of the first sidecar `sidecars` holds for `name`, or nil; what is wrong with it goes to `warn`.
    static func read(for name: String, sidecars: Set<[UInt8]>, input: InputFolder, decoders: DecoderPool,
                     warn: (String) -> Void) -> PhotoMetadata? {
        read(for: name, sidecars: sidecars, input: input, decoders: decoders, memo: SidecarMemo(), warn: warn).reading
    }

    /// The same, taken from `memo` when the sidecar has the stamp it recorded.
    static func read(for name: String, sidecars: Set<[UInt8]>, input: InputFolder, decoders: DecoderPool, memo: SidecarMemo,
                     warn: (String) -> Void) -> Outcome {
        guard let found = candidates(for: name).first(where: { sidecars.contains(Array($0.utf8)) }) else { return Outcome() }
        let fileName = FolderPath.lastComponent(of: found)
        let file: OpenFile
        do {
            file = try input.open(FolderPath.join(input.path, found))
        } catch {
            warn("its XMP sidecar \(fileName) is not used: \(error.reason)")
            return Outcome()
        }
        guard file.status.size <= maximumBytes else {
            warn("its XMP sidecar \(fileName) is not used: it is larger than 4 MiB")
            return Outcome()
        }
        let stamp = SidecarMemo.Stamp(file)
        if let reading = memo.reading(for: found, stamp: stamp) {
            return Outcome(reading: reading, memo: SidecarMemo.Item(name: found, stamp: stamp, reading: reading))
        }
        switch decoders.sidecar(file) {
        case .failure(let failure):
            warn("its XMP sidecar \(fileName) is not used: \(failure.reason(format: "XMP"))")
            return Outcome(parsed: true)
        case .success(let (bytes, truncated)):
            let records = MetadataRecords(bytes, truncated: truncated, xmp: .xmpSidecar, xmpName: "XMP sidecar \(fileName)")
            records.warnings.forEach(warn)
            // A reading that warns is not kept: its warning is said every build.
            let kept = records.warnings.isEmpty ? SidecarMemo.item(found, before: stamp, descriptor: file.descriptor, reading: records.xmp) : nil
            return Outcome(reading: records.xmp, memo: kept, parsed: true)
        }
    }
}
