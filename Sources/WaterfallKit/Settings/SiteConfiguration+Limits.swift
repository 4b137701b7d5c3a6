/// Settings that are each in range (`SettingLimits`) but do not fit together: checked when the file is
/// read, so the build stops before it reads a photo or writes a file.
extension SiteConfiguration {
    /// Throws the first combination the build cannot honour, naming the file.
    func checkCombinations(file: String) throws(FileError) {
        if let tileWidth, let density = densities.max(), tileWidth * density > SettingLimits.widestImage {
            throw FileError(file: file, message: "'tileWidth' × the largest density must be at most "
                + "\(SettingLimits.widestImage) (got \(tileWidth) × \(density) = \(tileWidth * density))")
        }
        if let problem = layoutProblem() { throw FileError(file: file, message: "layout: " + problem) }
    }

    /// Why the bands cannot be laid out (a band's board is too narrow for its columns, spacing and insets),
    /// or nil. The engine would say the same later; this says it in the file's words, before any work.
    func layoutProblem() -> String? {
        let sorted = bands.sorted { $0.minWidth < $1.minWidth }
        for (setting, band) in Swift.zip(sorted, layoutBands) {
            let configuration = band.configuration(basedOn: layoutConfiguration)
            guard configuration.itemWidth(forContainerWidth: band.minimumWidth) <= 0 else { continue }
            let insets = configuration.edgeInsets
            return "a board \(band.minimumWidth.readable) px wide has no room for \(band.columnCount) column"
                + (band.columnCount == 1 ? "" : "s") + " with \(configuration.columnSpacing.readable) px between them "
                + "and insets of \(insets.left.readable) + \(insets.right.readable) px "
                + "(the band from \(setting.minWidth.readable) px)"
        }
        do {
            _ = try ResponsiveLayout(bands: layoutBands, configuration: layoutConfiguration, items: try SizedItems(displaySizes: []))
        } catch {
            return "\(error)"
        }
        return nil
    }
}
