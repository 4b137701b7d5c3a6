import Foundation
import Testing
@testable import WaterfallKit

/// The images a browser picks for a tile: wide enough for the screen's pixels, never much wider; and the
/// images it asks for first: those of the first screen, the likely largest one before all.
struct ImageChoiceTests {
    /// What a browser does with `srcset` widths and a slot of `need` device pixels: the narrowest image at
    /// least that wide, else the widest.
    static func pick(_ widths: [Int], need: Double) -> Int {
        widths.first { Double($0) >= need } ?? widths.last!
    }

    /// Random bands: one to five, of 1–7 columns, with their own spacings sometimes.
    static func randomConfiguration(_ random: inout SplitMix64) -> SiteConfiguration {
        var configuration = SiteConfiguration()
        var start = 0.0
        configuration.bands = (0..<Int(random.nextDouble(in: 1..<6))).map { _ in
            defer { start += random.nextDouble(in: 150..<900) }
            let spacing: Double? = random.nextDouble(in: 0..<1) < 0.3 ? random.nextDouble(in: 0..<40) : nil
            return .init(minWidth: start, columns: Int(random.nextDouble(in: 1..<8)), columnSpacing: spacing)
        }
        configuration.densities = random.nextDouble(in: 0..<1) < 0.5 ? [1, 2, 3] : [1, 2]
        return configuration
    }

    /// Every 3rd board width each band serves, up to the widest board, with its tile's CSS width.
    static func forEachTile(_ configuration: SiteConfiguration, _ body: (_ board: Double, _ tile: Double) -> Void) {
        let bands = configuration.layoutBands
        for (position, band) in bands.enumerated() {
            let layout = band.configuration(basedOn: configuration.layoutConfiguration)
            let end = position + 1 < bands.count ? bands[position + 1].minimumWidth : SiteConfiguration.widestBoard
            for board in stride(from: band.minimumWidth, through: min(end, SiteConfiguration.widestBoard), by: 3) {
                let tile = layout.itemWidth(forContainerWidth: board)
                if tile > 1 { body(board, tile) }
            }
        }
    }

    /// Sampled over every board width a band serves and every density, the image picked is at least the
    /// tile's device pixels and at most 1.5 times them: for the defaults and for random bands.
    @Test func everyTileAtEveryWidthAndDensityGetsAnImageWithinTheReach() throws {
        var random = SplitMix64(seed: 27)
        for round in 0..<60 {
            let configuration = round == 0 ? SiteConfiguration() : Self.randomConfiguration(&random)
            let widths = ImageSizes(configuration: configuration).tileWidths
            #expect(widths == widths.sorted() && Set(widths).count == widths.count)
            Self.forEachTile(configuration) { board, tile in
                // (3× screens are phones: no density over 2 for boards wider than any phone.)
                for density in configuration.densities where density <= 2 || board < TileWidthLadder.widestDenseBoard {
                    let need = tile * Double(density)
                    let picked = Double(Self.pick(widths, need: need))
                    #expect(picked >= need - 1e-9, "round \(round): \(board) px board, \(density)×: \(picked) for \(need)")
                    #expect(picked <= need * TileWidthLadder.reach + 1, "round \(round): \(picked) for \(need)")
                }
            }
        }
    }

    /// The defaults: a handful of widths, from a 320-px phone's 1× tile to a 2560-px board's 2× tile.
    @Test func theDefaultLadderIsAHandfulOfWidths() {
        let widths = ImageSizes(configuration: SiteConfiguration()).tileWidths
        #expect((4...8).contains(widths.count), "\(widths)")
        #expect(widths.contains(500), "\(widths)")  // the widest 1× tile, a 2560-px board's
        #expect(widths.first! >= 145 && widths.first! <= 218, "\(widths)")  // a 145-px tile at 1×
        #expect(widths.last! == 1000, "\(widths)")  // a 500-px tile at 2× (3× only on phone-wide boards)
        // The screens most visitors have get their tiles' exact widths: a 390-px phone at 3×, a 1440-px desktop.
        #expect(widths.contains(540) && widths.contains(276), "\(widths)")
        // A tileWidth the settings name is made at each density, as before.
        var named = SiteConfiguration()
        named.tileWidth = 400
        #expect(ImageSizes(configuration: named).tileWidths == [400, 800, 1200])
    }

    /// No 1× screen up to the widest board takes a tile image made for denser screens (at the dense quality),
    /// and the phone's 3× tile is one: for the defaults and for random bands.
    @Test func onlyDenseScreensTakeTheDenseTiles() throws {
        var random = SplitMix64(seed: 2712)
        for round in 0..<60 {
            let configuration = round == 0 ? SiteConfiguration() : Self.randomConfiguration(&random)
            let sizes = ImageSizes(configuration: configuration)
            Self.forEachTile(configuration) { board, tile in
                let picked = Self.pick(sizes.tileWidths, need: tile)
                #expect(picked <= sizes.denseAbove, "round \(round): \(board) px board at 1× takes \(picked)")
            }
        }
        let defaults = ImageSizes(configuration: SiteConfiguration())
        #expect(defaults.denseAbove == 500 && defaults.tileWidths.filter { $0 > defaults.denseAbove } == [540, 810, 1000])
        var named = SiteConfiguration()
        named.tileWidth = 400
        #expect(ImageSizes(configuration: named).denseAbove == 400)
        named.densities = [2, 3]
        #expect(ImageSizes(configuration: named).denseAbove == 0)
    }

    /// The dense quality reaches the JPEG encoder of dense tiles only; WebP, AVIF and the view keep theirs.
    @Test func theDenseQualityReachesOnlyTheDenseJPEGs() throws {
        var configuration = SiteConfiguration()
        configuration.formats = [.webp, .jpeg]
        configuration.denseQuality = 40
        let sizes = ImageSizes(configuration: configuration)
        let header = ImageHeader(format: .jpeg, pixelWidth: 4000, pixelHeight: 3000)
        for derivation in sizes.derivations(for: header, encoders: EncoderSettings(configuration: configuration)) {
            let dense = Int(derivation.size).map { $0 > sizes.denseAbove } ?? false
            let expected = derivation.format == .webp ? configuration.webpQuality : dense ? 40 : configuration.quality
            #expect(derivation.request.quality == expected, "\(derivation.size) \(derivation.format)")
        }
    }

    /// Every box fits what the fallback holds (65,500 px a side): a tile of a photo so tall that its width
    /// would pass that is that tall and narrower, tiles that come out the same width are made once, and only
    /// such a photo's boxes get a height (every other photo's images keep their keys). An animated view fits
    /// WebP's 16,383.
    @Test func everyBoxFitsTheFallbacksSides() throws {
        let configuration = SiteConfiguration()
        let sizes = ImageSizes(configuration: configuration), encoders = EncoderSettings(configuration: configuration)
        func boxes(_ width: Int, _ height: Int, frames: Int = 1) -> [String: (width: Int, height: Int, maxHeight: Int?)] {
            let header = ImageHeader(format: .png, pixelWidth: width, pixelHeight: height, frames: frames)
            return Dictionary(uniqueKeysWithValues: sizes.derivations(for: header, encoders: encoders).map {
                let fitted = $0.fittedSize(display: header)
                return ($0.size, (fitted.width, fitted.height, $0.request.maxHeight))
            })
        }
        #expect(sizes.tileWidths == [217, 276, 414, 500, 540, 810, 1000])
        let capture = boxes(1080, 80000)
        #expect(capture["1000"]! == (884, 65500, 65500))
        #expect(capture["810"]! == (810, 60000, nil))
        #expect(capture["view"]! == (28, 2048, 2048))
        for (size, box) in capture { #expect(max(box.width, box.height) <= 65500, "\(size)") }
        // Every tile width comes out 66×65500: one tile.
        let thin = boxes(100, 100_000)
        #expect(thin.count == 2 && thin["217"]! == (66, 65500, 65500) && thin["view"]! == (2, 2048, 2048))
        for (_, box) in boxes(4000, 3000) where box.maxHeight != nil { #expect(box.maxHeight == 2048) }
        #expect(boxes(1080, 60000).values.allSatisfy { $0.maxHeight == nil || $0.maxHeight == 2048 })
        // An animation's view is an animated WebP: at most 16383 a side, even where the view size is 16384.
        var wide = configuration
        wide.viewSize = 16384
        let header = ImageHeader(format: .gif, pixelWidth: 20000, pixelHeight: 100, frames: 2)
        let view = try #require(ImageSizes(configuration: wide).derivations(for: header, encoders: encoders).first { $0.role == .view })
        #expect(view.fittedSize(display: header).width == 16383 && view.request.animate)
    }

    /// Ranges of need with a gap between them get no rung in the gap, and a cap holds.
    @Test func theLadderSkipsWidthsNoTileNeedsAndKeepsToTheCap() {
        #expect(TileWidthLadder(needs: [100...120, 1000...1100], widest: 16384).widths == [150, 1100])
        #expect(TileWidthLadder(needs: [100...100], widest: 16384).widths == [100])
        #expect(TileWidthLadder(needs: [100...1000], widest: 400).widths == [150, 225, 337, 400])
        #expect(TileWidthLadder(needs: [], widest: 400).widths == [])
        // Needs of a pixel or two (a band whose insets leave its tiles almost nothing) still end.
        #expect(TileWidthLadder(needs: [1...3], widest: 400).widths == [1, 2, 3])
        #expect(TileWidthLadder(needs: [0.5...1], widest: 400).widths == [1])
    }

    /// The concrete layout of a band at a width, as the engine lays it out there (not from the affine frames).
    static func frames(_ layout: ResponsiveLayout, at width: Double) throws -> [Rect] {
        try layout.layout(atWidth: width).itemAttributes.sorted { $0.index < $1.index }.map(\.frame)
    }

    /// Eager: exactly the tiles whose top is on the first screen of the narrowest device of some band and
    /// not more than a screen below on any (and the priority tiles). Priority: the tile with the largest area on a 390×844 phone's and on a 1440×900
    /// desktop's screen, so one or two. Nothing two screens down loads eagerly.
    @Test func theFirstScreenIsJudgedOnTheNarrowestDeviceOfEachBand() throws {
        var random = SplitMix64(seed: 43)
        for round in 0..<20 {
            let sizes = (0..<80).map { _ in Size(width: random.nextDouble(in: 100..<4000), height: random.nextDouble(in: 100..<4000)) }
            let items = try SizedItems(displaySizes: sizes)
            var configuration = SiteConfiguration()
            if round % 2 == 1 { configuration.bands = [.init(minWidth: 600, columns: 3), .init(minWidth: 1200, columns: 5)] }
            let layout = try ResponsiveLayout(bands: configuration.layoutBands, configuration: configuration.layoutConfiguration, items: items)
            let screen = FirstScreen(layout: layout)
            var first = [Bool](repeating: false, count: sizes.count), deep = first
            for (position, band) in configuration.layoutBands.enumerated() {
                // The first band also serves every narrower board: its narrowest device is the narrowest of all.
                let width = position == 0 ? SiteConfiguration.narrowestBoard : band.minimumWidth
                let height = FirstScreen.screenHeight(atWidth: width)
                for (index, frame) in try Self.frames(layout, at: width).enumerated() {
                    if frame.y < height { first[index] = true }
                    if frame.y >= 2 * height { deep[index] = true }
                }
            }
            var expected = sizes.indices.map { first[$0] && !deep[$0] }
            var high: Set<Int> = []
            for (width, height) in [(390.0, 844.0), (1440.0, 900.0)] {
                let frames = try Self.frames(layout, at: width)
                let areas = frames.map { $0.width * max(0, min($0.y + $0.height, height) - max($0.y, 0)) }
                let best = areas.indices.max { areas[$0] < areas[$1] || (areas[$0] == areas[$1] && $0 > $1) }!
                high.insert(best)
                expected[best] = true
                // Nothing more than a screen below this device's fold loads eagerly.
                for (index, frame) in frames.enumerated() where frame.y > 2 * height {
                    #expect(!screen.eager[index], "round \(round): tile \(index) at \(frame.y) px on a \(width)-px screen")
                }
            }
            #expect(Set(screen.priority.indices.filter { screen.priority[$0] }) == high, "round \(round)")
            for index in sizes.indices {
                #expect(screen.eager[index] == expected[index], "round \(round): tile \(index)")
            }
        }
    }
}
