/// Display strings for a photo page, built from the facts. Plain text: escaping is the template's job.
extension ExifFacts {
    /// Between the parts of `summary`.
    public static let summarySeparator = " · "

    /// "Canon EOS R5 · RF24-105mm F4 L IS USM · 50 mm · ƒ/4 · 1/250 s · ISO 400", from the facts there
    /// are, in that order; nil when there are none.
    public var summary: String? {
        let parts = summaryParts
        return parts.isEmpty ? nil : parts.joined(separator: Self.summarySeparator)
    }

    public var summaryParts: [String] {
        var parts: [String] = []
        let camera = cameraName
        if let camera { parts.append(camera) }
        if let lens, !Self.same(lens, camera), !Self.same(lens, model) { parts.append(lens) }
        if let focalLength { parts.append(DecimalText.format(focalLength, decimals: 1) + " mm") }
        if let fNumber { parts.append("ƒ/" + DecimalText.format(fNumber, decimals: 1)) }
        if let exposureTime { parts.append(exposureTime.description) }
        if let iso { parts.append("ISO \(iso)") }
        return parts
    }

    /// Make and Model as one name. Model alone when it already names the maker, as it mostly does:
    /// "Canon" + "Canon EOS R5" is "Canon EOS R5", "NIKON CORPORATION" + "NIKON Z 6" is "NIKON Z 6". Otherwise
    /// the maker without its company words, then the model: "OLYMPUS IMAGING CORP." + "E-M5" is "OLYMPUS E-M5".
    public var cameraName: String? {
        guard let model else { return make.map(Self.brand) }
        guard let make else { return model }
        let makeWords = Set(make.split(separator: " ").map { $0.lowercased() })
        if let first = model.split(separator: " ").first, makeWords.contains(first.lowercased()) { return model }
        return Self.brand(make) + " " + model
    }

    /// The text to show with the photo: the PNG Description, else the EXIF ImageDescription unless it is
    /// one of the stock strings cameras write there, or just the camera's name.
    public var caption: String? {
        if let pngDescription { return pngDescription }
        guard let imageDescription else { return nil }
        let key = imageDescription.uppercased()
        if Self.placeholderDescriptions.contains(key) || Self.same(imageDescription, make)
            || Self.same(imageDescription, model) || Self.same(imageDescription, cameraName) {
            return nil
        }
        return imageDescription
    }

    /// ImageDescription values that some cameras and phones write on every photo.
    static let placeholderDescriptions: Set<String> = [
        "OLYMPUS DIGITAL CAMERA", "SONY DSC", "DIGITAL CAMERA", "DCIM", "DSC", "DEFAULT", "EXIF_JPEG_PICTURE",
        "KODAK DIGITAL STILL CAMERA", "MINOLTA DIGITAL CAMERA", "SAMSUNG DIGITAL CAMERA", "SAMSUNG", "HDR",
        "LEAD TECHNOLOGIES INC. V1.01", "PENTAX DIGITAL CAMERA", "CREATED WITH GIMP", "IMAGE",
    ]

    /// Company words dropped from the end of a Make.
    private static let companyWords: Set<String> = [
        "corporation", "corp.", "corp", "co.", "co", "co.,ltd.", "co.,ltd", "ltd.", "ltd", "inc.", "inc",
        "company", "imaging", "camera", "ag", "gmbh", "optical",
    ]

    private static func brand(_ make: String) -> String {
        var words = make.split(separator: " ")
        while words.count > 1, let last = words.last,
              companyWords.contains(last.lowercased().trimmingSuffix(",")) {
            words.removeLast()
        }
        var name = words.joined(separator: " ")
        while name.hasSuffix(",") { name.removeLast() }
        return name
    }

    private static func same(_ a: String, _ b: String?) -> Bool {
        guard let b else { return false }
        return a.lowercased() == b.lowercased()
    }
}

private extension String {
    func trimmingSuffix(_ suffix: Character) -> String {
        var text = self
        while text.last == suffix { text.removeLast() }
        return text
    }
}
