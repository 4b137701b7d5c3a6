extension Photo {
    /// A scanned photo whose header and facts the cache's entry gives.
    init(_ file: ScannedFile, entry box: CachedEntry) {
        let entry = box.entry
        self.init(source: file.source, name: file.name, header: entry.header, status: file.status,
                  metadata: file.metadata(with: entry.facts), facts: entry.facts)
        cachedEntry = box
        content = entry.content
    }
}
