/// Which tiles a visitor sees before scrolling, from the tiles' exact tops: the images that load eagerly,
/// and the one or two the browser should fetch before all others (the likely largest contentful paint).
///
/// On a slow link every image shares the bandwidth, so each one asked for early delays the others: eager
/// loading is kept to the first screen of the narrowest device each band serves (a wider device of the band
/// sees a little more, which its browser loads lazily at once), less what another band's device has more
/// than a screen below its fold; high priority goes to the largest image of a phone's and a desktop's first
/// screen.
struct FirstScreen: Sendable, Equatable {
    /// Whether each tile's image loads eagerly.
    let eager: [Bool]
    /// Whether each tile's image is fetched first (at most one per reference device).
    let priority: [Bool]

    /// The screens the likely largest paint is judged on: the phone and the desktop most visitors have.
    static let referenceScreens: [(width: Double, height: Double)] = [(390, 844), (1440, 900)]

    init(layout: ResponsiveLayout) {
        let count = layout.bands.first?.itemFrames.count ?? 0
        // In screens below the top, on the narrowest device of each band.
        let depths = layout.bands.map { band in
            let width = max(band.servedWidths.lowerBound, SiteConfiguration.narrowestBoard)
            let height = Self.screenHeight(atWidth: width)
            return band.itemFrames.map { $0.y.evaluate(at: width) / height }
        }
        // On some band's first screen, and not more than a screen below the fold on any: the pages are one
        // for every width, so a desktop's first tiles, two screens down on a phone, stay lazy.
        var eager = (0..<count).map { index in
            depths.contains { $0[index] < 1 } && depths.allSatisfy { $0[index] < 2 }
        }
        var priority = [Bool](repeating: false, count: count)
        for screen in Self.referenceScreens {
            if let index = Self.largest(in: layout.bandLayout(forWidth: screen.width), screen: screen) {
                priority[index] = true
                eager[index] = true
            }
        }
        self.eager = eager
        self.priority = priority
    }

    /// The height of the screen of a device `width` CSS px wide held as it is usually held: a phone upright
    /// (390×844: 2.16 times as tall as wide), a tablet upright (768×1024), a laptop or desktop (1440×900).
    static func screenHeight(atWidth width: Double) -> Double {
        if width < 600 { return width * 844 / 390 }
        if width < 1024 { return width * 4 / 3 }
        return width * 10 / 16
    }

    /// The tile with the largest area inside the screen (a browser's largest contentful paint among images),
    /// the first of equals; nil when no tile is on it.
    private static func largest(in band: BandLayout, screen: (width: Double, height: Double)) -> Int? {
        var best: (index: Int, area: Double)?
        for (index, frame) in band.itemFrames.enumerated() {
            let rect = frame.evaluate(at: screen.width)
            let visible = min(rect.y + rect.height, screen.height) - max(rect.y, 0)
            let area = rect.width * max(0, visible)
            if area > 0, area > (best?.area ?? 0) { best = (index, area) }
        }
        return best?.index
    }
}
