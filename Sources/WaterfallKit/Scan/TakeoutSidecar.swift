/// Google Takeout's JSON sidecar beside a photo (`IMG_1.jpg.json` and its other spellings): the photo's
/// title, description and when it was taken, for whatever the photo itself lacks (source `.takeout`, last in
/// precedence). Its location, people and URLs are never read.
///
/// The names follow what Takeout writes (the rules gpth and ente apply): `IMG_1.jpg.json`;
/// `IMG_1.jpg.supplemental-metadata.json` (2024 on), cut short when the name passes 46 characters
/// (`…jpg.supplemental-metad.json`, `…jpg.suppl.json`, or the photo's name itself cut); `IMG_1.json`; a
/// duplicate `IMG_1(1).jpg` has `IMG_1.jpg(1).json` (the counter moves after the extension); an edited copy
/// `IMG_1-edited.jpg` shares its original's JSON.
enum TakeoutSidecar {
    /// Takeout's JSON files are a few hundred bytes: anything past this is not one.
    static let maximumBytes = 1 << 20
    /// Takeout cuts a sidecar's name (before `.json`) at this many characters.
    static let nameLimit = 46
    static let supplement = ".supplemental-metadata"
    /// The suffixes Google Photos gives an edited copy, in the languages seen in exports.
    static let editedSuffixes = ["-edited", "-effects", "-bearbeitet", "-bewerkt", "-modifié", "-modificato", "-editado",
                                 "-ha editado", "-editat", "-edytowane", "-redigeret", "-muokattu", "-編集済み"]

    /// Whether a file is possibly one (so the scan keeps its name): any `.json` but an album's settings.
    static func isCandidate(_ fileName: String) -> Bool {
        fileName.lowercased().hasSuffix(".json") && fileName != "waterfall.json"
    }

    /// The JSON file (a path relative to the input) among `names` that belongs to the photo `name` (relative
    /// too), if one does. Several that fit: the one with the longest name, then the first in natural order.
    static func sidecar(for name: String, among names: Set<[UInt8]>) -> String? {
        let folder = SitePath.folder(of: name)
        let fileName = FolderPath.lastComponent(of: name)
        for (base, counter) in spellings(of: fileName) {
            let found = candidates(base: base, counter: counter).filter { names.contains(Array(SitePath.join(folder, $0).utf8)) }
            let best = NaturalOrder.sorted(found, by: { $0 }).max { $0.unicodeScalars.count < $1.unicodeScalars.count }
            if let best { return SitePath.join(folder, best) }
        }
        return nil
    }

    /// The names Takeout may have based the photo's JSON on, most likely first: the name itself, the name
    /// without a duplicate's `(k)` (with that counter), and the original of an edited copy.
    static func spellings(of fileName: String) -> [(base: String, counter: String)] {
        var result = [(base: fileName, counter: "")]
        let (stem, ext) = split(fileName)
        if stem.hasSuffix(")"), let open = stem.lastIndex(of: "("), stem.index(after: open) < stem.index(before: stem.endIndex) {
            let digits = stem[stem.index(after: open)..<stem.index(before: stem.endIndex)]
            if digits.allSatisfy(\.isASCIIDigit), digits.count <= 4 {
                result.append((String(stem[..<open]) + ext, "(\(digits))"))
            }
        }
        for suffix in editedSuffixes where stem.hasSuffix(suffix) && stem.count > suffix.count {
            result.append((String(stem.dropLast(suffix.count)) + ext, ""))
        }
        return result
    }

    /// Every JSON file name that fits `base` with `counter`: each cut of `base` + `.supplemental-metadata`
    /// no shorter than the base (or than 46 characters), and the base without its extension.
    static func candidates(base: String, counter: String) -> [String] {
        let full = Array((base + supplement).unicodeScalars)
        let baseScalars = base.unicodeScalars.count, baseBytes = base.utf8.count
        var names: [String] = []
        var prefix = String.UnicodeScalarView()
        var bytes = 0
        for (index, scalar) in full.enumerated() {
            prefix.append(scalar)
            bytes += String(scalar).utf8.count
            // Cut at 46 characters; whether Google counts scalars or bytes is not known, so either is taken.
            guard index + 1 >= min(baseScalars, nameLimit) || bytes >= min(baseBytes, nameLimit) else { continue }
            names.append(String(prefix) + counter + ".json")
        }
        let stem = split(base).stem
        if stem != base { names.append(stem + counter + ".json") }
        return names
    }

    static func split(_ fileName: String) -> (stem: String, ext: String) {
        guard let dot = fileName.lastIndex(ofASCII: "."), dot != fileName.startIndex else { return (fileName, "") }
        return (String(fileName[..<dot]), String(fileName[dot...]))
    }

    /// The photo's reading from its JSON, if it has one; one that cannot be used is reported to `warn`.
    static func reading(for name: String, among names: Set<[UInt8]>, input: InputFolder, warn: (String) -> Void) -> PhotoMetadata? {
        guard !names.isEmpty, let sidecar = sidecar(for: name, among: names) else { return nil }
        let path = FolderPath.join(input.path, sidecar)
        do {
            let bytes = try input.open(path).read(limit: maximumBytes)
            return try parse(bytes, photo: FolderPath.lastComponent(of: name))
        } catch let error as FileSystemError {
            warn("\(error); its Takeout metadata is not used")
        } catch {
            warn("\(PathText.display(path)): \(error); its Takeout metadata is not used")
        }
        return nil
    }

    struct Unusable: Error, CustomStringConvertible {
        var description: String
    }

    /// `title` (when it is not just the photo's name), `description` and `photoTakenTime.timestamp` (UTC).
    static func parse(_ bytes: [UInt8], photo fileName: String) throws -> PhotoMetadata {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes: bytes)
        } catch {
            throw Unusable(description: "not valid JSON (\(error))")
        }
        guard case .object = json else { throw Unusable(description: "not a Takeout metadata file (no JSON object)") }
        let fields = json.members
        var title = fields["title"]?.text
        if let given = title?.trimmed, spellings(of: fileName).contains(where: { given == $0.base || given == split($0.base).stem })
            || given == fileName || given == split(fileName).stem {
            title = nil
        }
        let taken = fields["photoTakenTime"]?.members["timestamp"].flatMap(Self.taken)
        return PhotoMetadata(.takeout, title: title, description: fields["description"]?.text, taken: taken)
    }

    /// Unix seconds (Takeout writes them as a string) as a date in UTC; nil for 0 (or less: Takeout's "unknown") or past 9999.
    static func taken(_ value: JSONValue) -> PhotoMetadata.Taken? {
        let seconds: Int?
        switch value {
        case .string(let text): seconds = text.count <= 15 && text.allSatisfy(\.isASCIIDigit) ? Int(text) : nil
        default: seconds = value.number
        }
        guard let seconds, seconds > 0, seconds < 253_402_300_800 else { return nil }
        let (year, month, day) = civil(days: seconds / 86_400)
        let time = seconds % 86_400
        let (hour, minute, second) = (time / 3600, time / 60 % 60, time % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let text = "\(year)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute)):\(two(second))"
        return PhotoMetadata.Taken(text: text, number: ((year * 100 + month) * 100 + day) * 1_000_000 + hour * 10_000 + minute * 100 + second)
    }

    /// Days since 1970-01-01 as a proleptic Gregorian date (Howard Hinnant's `civil_from_days`).
    static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
