extension DerivedFile {
    /// Its path in the site is given later, by `SiteNames`.
    init(derivation: Derivation, key: String? = nil, stored: BuildCache.Derived, made: Bool = false) {
        self.init(label: derivation.label, size: derivation.size, delivery: derivation.format, role: derivation.role,
                  key: key ?? derivation.key, path: "", width: stored.width,
                  height: stored.height, format: stored.format, stored: stored.file, hash: stored.hash, made: made,
                  averageColor: stored.averageColor, sketch: stored.sketch)
    }
}
