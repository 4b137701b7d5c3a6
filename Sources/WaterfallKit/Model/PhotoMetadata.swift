/// What a photo's metadata says of it, beside the camera: title, description, keywords, rating, creator,
/// rights and when it was taken, each with the source it came from. One source's reading is a
/// `PhotoMetadata` whose fields all name that source; `merged` combines several. Never a location.
struct PhotoMetadata: Sendable, Equatable {
    /// A value and where it came from.
    struct Sourced<Value: Sendable & Equatable>: Sendable, Equatable {
        var value: Value
        var source: MetadataSource
    }

    /// When a photo was taken, as its sources say it: "2024-05-17 08:30:12", and that as `YYYYMMDDhhmmss`
    /// for sorting.
    struct Taken: Sendable, Equatable {
        var text: String
        var number: Int
    }

    var title: Sourced<String>?
    var description: Sourced<String>?
    /// Keywords (tags), in the order the source lists them: never empty when present.
    var keywords: Sourced<[String]>?
    /// -1 (rejected) to 5, as XMP's `xmp:Rating` (0: unrated).
    var rating: Sourced<Int>?
    var creator: Sourced<String>?
    var rights: Sourced<String>?
    var taken: Sourced<Taken>?
    /// The description as HTML, when its source is Markdown (sigal's `NAME.md`, rendered safe by cmark-gfm):
    /// `description` then holds its plain text. Pages show only this HTML unescaped.
    var descriptionHTML: String?

    init() {}

    /// One source's reading: empty texts and lists count as absent, a rating outside -1...5 as absent.
    init(_ source: MetadataSource, title: String? = nil, description: String? = nil, keywords: [String] = [],
         rating: Int? = nil, creator: String? = nil, rights: String? = nil, taken: Taken? = nil) {
        func text(_ value: String?) -> Sourced<String>? {
            guard let value = value?.trimmed, !value.isEmpty else { return nil }
            return Sourced(value: value, source: source)
        }
        self.title = text(title)
        self.description = text(description)
        let words = keywords.map(\.trimmed).filter { !$0.isEmpty }
        self.keywords = words.isEmpty ? nil : Sourced(value: words, source: source)
        self.rating = rating.flatMap { (-1...5).contains($0) ? Sourced(value: $0, source: source) : nil }
        self.creator = text(creator)
        self.rights = text(rights)
        self.taken = taken.map { Sourced(value: $0, source: source) }
    }

    var isEmpty: Bool { self == PhotoMetadata() }

    /// The caption pages show: the title and the description; a description alone is shown as the title,
    /// as a photo's embedded description always was.
    var caption: Caption? {
        if let title { return Caption(title: title.value, description: description?.value, descriptionHTML: descriptionHTML) }
        // Markdown alone: its first line is the title, and the whole is still shown as the description.
        if let descriptionHTML, let text = description?.value, let first = text.split(whereSeparator: \.isNewline).first {
            return Caption(title: String(first).trimmed, description: text, descriptionHTML: descriptionHTML)
        }
        return description.map { Caption(title: $0.value) }
    }
}
