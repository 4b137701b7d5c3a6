#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// `inspect --metadata`: a file's metadata as a build would merge it, each field with where it came from
/// (`title "Sunset" from XMP sidecar IMG_1.jpg.xmp`): the sidecars beside it (NAME.txt, the XMP sidecar),
/// then its own bytes (XMP, IPTC, EXIF). Never a location: none is read. Also Apple's content identifier, which
/// pairs a Live Photo's still and clip (docs/metadata.md), so a pair that is not made can be looked into.
struct InspectMetadata: Sendable {
    var metadata: PhotoMetadata
    /// From a still's EXIF (Apple's MakerNote) or a video's container.
    var contentIdentifier: (value: String, source: MetadataSource)?
    /// The sidecar files that were read, by source (`IMG_1.jpg.xmp`).
    var files: [MetadataSource: String] = [:]
    /// What could not be used, one line each.
    var warnings: [String] = []

    /// The file at `path`, whose own bytes said `facts` (read with its header), and the sidecars beside it.
    init(path: String, facts: PhotoFacts, isVideo: Bool, reader: MediaReader) {
        var readings = [facts.metadata]
        warnings = facts.warnings
        contentIdentifier = facts.contentIdentifier.map { ($0, isVideo ? .container : .exif) }
        let folderPath = FolderPath.parent(of: path)
        let name = FolderPath.lastComponent(of: path)
        if let folder = try? InputFolder(path: folderPath, label: "the folder", followsAllLinks: false) {
            let candidates = XMPSidecar.candidates(for: name) + [name + ".txt", Self.stem(name) + ".txt", Self.stem(name) + ".TXT"]
            let present = Set(candidates.filter { Self.isFile(FolderPath.join(folderPath, $0)) }.map { Array($0.utf8) })
            var lines: [String] = []
            if let xmp = XMPSidecar.read(for: name, sidecars: present, input: folder, decoders: reader.decoders, warn: { lines.append($0) }) {
                readings.append(xmp)
                files[.xmpSidecar] = XMPSidecar.candidates(for: name).first { present.contains(Array($0.utf8)) }
            }
            if let caption = PhotoScanner.sidecarCaption(for: name, texts: present, input: folder, warn: { lines.append($0) }) {
                readings.append(PhotoMetadata(.text, title: caption.title, description: caption.description))
                files[.text] = [name + ".txt", Self.stem(name) + ".txt", Self.stem(name) + ".TXT"].first { present.contains(Array($0.utf8)) }
            }
            warnings += lines
        }
        metadata = .merged(readings)
    }

    /// A regular file, not a link (a sidecar is then opened without following any).
    private static func isFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    private static func stem(_ name: String) -> String {
        guard let dot = name.lastIndex(ofASCII: ".") else { return name }
        return String(name[..<dot])
    }

    /// Each field given, with its value as text and its source.
    var fields: [(name: String, value: JSONValue, text: String, source: MetadataSource)] {
        var out: [(String, JSONValue, String, MetadataSource)] = []
        func quoted(_ text: String) -> String { "\"" + text + "\"" }
        if let v = metadata.title { out.append(("title", .string(v.value), quoted(v.value), v.source)) }
        if let v = metadata.description { out.append(("description", .string(v.value), quoted(v.value), v.source)) }
        if let v = metadata.keywords {
            out.append(("keywords", .array(v.value.map { .string($0) }), v.value.map(quoted).joined(separator: ", "), v.source))
        }
        if let v = metadata.rating { out.append(("rating", .int(v.value), String(v.value), v.source)) }
        if let v = metadata.creator { out.append(("creator", .string(v.value), quoted(v.value), v.source)) }
        if let v = metadata.rights { out.append(("rights", .string(v.value), quoted(v.value), v.source)) }
        if let v = metadata.taken { out.append(("taken", .string(v.value.text), v.value.text, v.source)) }
        if let v = contentIdentifier { out.append(("contentIdentifier", .string(v.value), quoted(v.value), v.source)) }
        return out
    }

    /// `title "Sunset" from XMP sidecar IMG_1.jpg.xmp`, one line a field.
    var lines: [String] {
        fields.map { field in
            let name = field.name == "contentIdentifier" ? "content identifier" : field.name
            return "\(name) \(field.text) from \(field.source.label)" + (files[field.source].map { " " + $0 } ?? "")
        }
    }

    /// `{"title": {"value": "Sunset", "source": "xmp-sidecar", "file": "IMG_1.jpg.xmp"}, …}`.
    var json: JSONValue {
        .object(fields.map { field in
            (field.name, .object([("value", field.value), ("source", .string(field.source.rawValue))]
                + (files[field.source].map { [("file", JSONValue.string($0))] } ?? [])))
        })
    }
}
