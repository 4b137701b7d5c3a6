/// A photo's facts as the cache's entry files (JSON) and index (bytes) hold them, read back under the same
/// checks: a source must be one Waterfall knows, a rating within -1...5, a date's text and number present
/// together.
extension PhotoFacts {
    /// What `facts` in an entry's JSON holds.
    var json: JSONValue {
        var fields: [(String, JSONValue)] = [("summary", summary.map { .string($0) } ?? .null)]
        func add<Value>(_ name: String, _ field: PhotoMetadata.Sourced<Value>?, _ value: (Value) -> JSONValue) {
            guard let field else { return }
            fields.append((name, .object([("source", .string(field.source.rawValue)), ("value", value(field.value))])))
        }
        add("title", metadata.title) { .string($0) }
        add("description", metadata.description) { .string($0) }
        add("keywords", metadata.keywords) { .array($0.map { .string($0) }) }
        add("rating", metadata.rating) { .int($0) }
        add("creator", metadata.creator) { .string($0) }
        add("rights", metadata.rights) { .string($0) }
        add("taken", metadata.taken) { .array([.string($0.text), .int($0.number)]) }
        if let contentIdentifier { fields.append(("contentIdentifier", .string(contentIdentifier))) }
        if seeThrough { fields.append(("seeThrough", .bool(true))) }
        return .object(fields)
    }

    init?(json: JSONValue) {
        guard case .object(let members) = json else { return nil }
        let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
        func field<Value>(_ name: String, _ read: (JSONValue) -> Value?) -> PhotoMetadata.Sourced<Value>?? {
            guard let value = fields[name] else { return .some(nil) }
            guard case .object(let parts) = value, case .string(let raw)? = parts.first(where: { $0.0 == "source" })?.1,
                  let source = MetadataSource(rawValue: raw), let inner = parts.first(where: { $0.0 == "value" })?.1,
                  let read = read(inner) else { return nil }
            return .some(PhotoMetadata.Sourced(value: read, source: source))
        }
        let text = { (value: JSONValue) -> String? in if case .string(let text) = value { text } else { nil } }
        guard let title = field("title", text), let description = field("description", text),
              let keywords = field("keywords", { value -> [String]? in
                  guard case .array(let items) = value, !items.isEmpty else { return nil }
                  let words = items.compactMap(text)
                  return words.count == items.count ? words : nil
              }),
              let rating = field("rating", { value -> Int? in if case .int(let n) = value, (-1...5).contains(n) { n } else { nil } }),
              let creator = field("creator", text), let rights = field("rights", text),
              let taken = field("taken", { value -> PhotoMetadata.Taken? in
                  guard case .array(let parts) = value, parts.count == 2, case .string(let shown) = parts[0],
                        case .int(let number) = parts[1] else { return nil }
                  return PhotoMetadata.Taken(text: shown, number: number)
              }) else { return nil }
        if case .string(let text)? = fields["summary"] { summary = text }
        metadata = PhotoMetadata()
        (metadata.title, metadata.description, metadata.keywords, metadata.rating) = (title, description, keywords, rating)
        (metadata.creator, metadata.rights, metadata.taken) = (creator, rights, taken)
        if case .string(let text)? = fields["contentIdentifier"] {
            guard ContentIdentifier.clean(text) == text else { return nil }  // as a probe or ExifParser gives it
            contentIdentifier = text
        }
        seeThrough = fields["seeThrough"] == .bool(true)
    }
}

extension ByteWriter {
    mutating func facts(_ facts: PhotoFacts) throws(FileSystemError) {
        try optional(facts.summary)
        let metadata = facts.metadata
        for field in [metadata.title, metadata.description, metadata.creator, metadata.rights] { try sourced(field) { (writer, text) throws(FileSystemError) in try writer.string(text) } }
        try sourced(metadata.keywords) { (writer, words) throws(FileSystemError) in
            try writer.count(words.count)
            for word in words { try writer.string(word) }
        }
        try sourced(metadata.rating) { (writer, rating) throws(FileSystemError) in try writer.int(rating) }
        try sourced(metadata.taken) { (writer, taken) throws(FileSystemError) in
            try writer.string(taken.text)
            try writer.int(taken.number)
        }
        try optional(facts.contentIdentifier)
        try bytes(CollectionOfOne(facts.seeThrough ? 1 : 0))
    }

    /// A flag, then the source and the value when there is one.
    private mutating func sourced<Value>(_ field: PhotoMetadata.Sourced<Value>?,
                                         _ value: (inout ByteWriter, Value) throws(FileSystemError) -> Void) throws(FileSystemError) {
        try bytes(CollectionOfOne(field == nil ? 0 : 1))
        guard let field else { return }
        try string(field.source.rawValue)
        try value(&self, field.value)
    }
}

extension ByteReader {
    mutating func facts() -> PhotoFacts? {
        var facts = PhotoFacts()
        guard let summary = optional({ $0.string() }) else { return nil }
        facts.summary = summary
        var texts: [PhotoMetadata.Sourced<String>?] = []
        for _ in 0..<4 {
            guard let text = sourced({ $0.string() }) else { return nil }
            texts.append(text)
        }
        guard let keywords = sourced({ reader -> [String]? in reader.strings().flatMap { $0.isEmpty ? nil : $0 } }),
              let rating = sourced({ reader -> Int? in reader.int().flatMap { (-1...5).contains($0) ? $0 : nil } }),
              let taken = sourced({ reader -> PhotoMetadata.Taken? in
                  guard let text = reader.string(), let number = reader.int() else { return nil }
                  return PhotoMetadata.Taken(text: text, number: number)
              }),
              let contentIdentifier = optional({ $0.string().flatMap { ContentIdentifier.clean($0) == $0 ? $0 : nil } }),
              let seeThrough = flag() else { return nil }
        (facts.metadata.title, facts.metadata.description, facts.metadata.creator, facts.metadata.rights) = (texts[0], texts[1], texts[2], texts[3])
        (facts.metadata.keywords, facts.metadata.rating, facts.metadata.taken) = (keywords, rating, taken)
        facts.contentIdentifier = contentIdentifier
        facts.seeThrough = seeThrough
        return facts
    }

    private mutating func sourced<Value>(_ value: (inout ByteReader) -> Value?) -> PhotoMetadata.Sourced<Value>?? {
        optional { reader -> PhotoMetadata.Sourced<Value>? in
            guard let source = reader.string().flatMap(MetadataSource.init(rawValue:)), let read = value(&reader) else { return nil }
            return PhotoMetadata.Sourced(value: read, source: source)
        }
    }
}
