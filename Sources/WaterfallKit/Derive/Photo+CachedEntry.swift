extension Photo {
    /// A scanned photo whose header and facts the cache's entry gives.
    init(_ file: ScannedFile, entry box: CachedEntry) {
        let entry = box.entry
        self.init(source: file.source, name: file.name, header: entry.header, status: file.status, caption: file.caption)
        cachedEntry = box
        content = entry.content
        facts = entry.facts
        caption = file.caption ?? entry.facts.description.map { Caption(title: $0) }
    }
}
