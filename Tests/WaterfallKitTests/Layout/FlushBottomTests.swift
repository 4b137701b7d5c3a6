import Testing
@testable import WaterfallKit

extension LayoutTests {
    /// Flush bottoms: every column ends on one line, no tile reshaped past the limit, the footer under
    /// everything, at one width and across responsive bands.
    struct FlushBottomTests {
        /// A reshaped tile's crop: the share of its picture `object-fit: cover` cuts away.
        static func cropShare(natural: Double, shown: Double) -> Double {
            shown < natural ? (natural - shown) / natural : 1 - natural / shown
        }

        static func randomFlushConfiguration(_ random: inout SplitMix64) -> WaterfallConfiguration {
            var configuration = random.configuration(placement: .balanced)
            configuration.columnCount = random.nextInt(in: 1...4)
            configuration.bottom = .flush(maxCrop: [0, 0.05, 0.15, 0.3][random.nextInt(in: 0...3)])
            return configuration
        }

        @Test func flushEndsEveryColumnOnOneLineWithinTheLimit() throws {
            var random = SplitMix64(seed: 31)
            var flushCount = 0
            for _ in 0..<120 {
                let configuration = Self.randomFlushConfiguration(&random)
                let width = configuration.containerWidth(forItemWidth: random.nextDouble(in: 20..<400))
                let items = try SizedItems(displaySizes: random.displaySizes(count: random.nextInt(in: 0...40)))
                let flush = try WaterfallLayout(containerWidth: width, configuration: configuration, delegate: items)
                var naturalConfiguration = configuration
                naturalConfiguration.bottom = .natural
                let natural = try WaterfallLayout(containerWidth: width, configuration: naturalConfiguration, delegate: items)
                guard let line = flush.flushLine else {
                    // Out of reach: exactly the natural (balanced) board.
                    #expect(flush.itemAttributes == natural.itemAttributes)
                    #expect(flush.footerY == natural.footerY)
                    continue
                }
                flushCount += 1
                let limit = configuration.bottom.maxCrop!
                for bottom in flush.columnBottoms { #expect(nearlyEqual(bottom, line), "\(flush.columnBottoms) vs \(line)") }
                #expect(flush.footerY == line + configuration.edgeInsets.bottom)
                let lastItems = Set(flush.columnItems.compactMap(\.last))
                for item in flush.itemAttributes {
                    let naturalHeight = items.aspectRatios[item.index] * flush.itemWidth
                    if let recorded = flush.naturalHeights[item.index] {
                        #expect(lastItems.contains(item.index), "only a column's last tile is reshaped")
                        #expect(nearlyEqual(recorded, naturalHeight))
                        #expect(Self.cropShare(natural: naturalHeight, shown: item.frame.height) <= limit + 1e-9)
                    } else {
                        #expect(nearlyEqual(item.frame.height, naturalHeight))
                    }
                }
            }
            #expect(flushCount >= 40, "the random cases must exercise flush bottoms (\(flushCount) did)")
        }

        /// Two tiles 100 and 90 px high (10 px insets) end at 110 and 100: they meet where each
        /// changes by the same share of its height, 10 / (100 + 90), at 110 − 100·10/190.
        @Test func twoTilesMeetBetweenTheirEnds() throws {
            let configuration = WaterfallConfiguration(columnCount: 2, bottom: .flush(maxCrop: 0.15))
            let layout = try WaterfallLayout(containerWidth: 230, configuration: configuration, delegate: FixedHeights([100, 90]))
            let line = 110 - 100 * 10.0 / 190
            #expect(nearlyEqual(layout.flushLine!, line))
            #expect(nearlyEqual(layout.itemAttributes[0].frame.height, line - 10))
            #expect(nearlyEqual(layout.itemAttributes[1].frame.height, line - 10))
            #expect(layout.naturalHeights == [0: 100, 1: 90])
            // 10 px apart is 5.3% of the pair: beyond a 5% limit, so the board stays natural.
            let strict = try WaterfallLayout(containerWidth: 230, configuration: WaterfallConfiguration(columnCount: 2, bottom: .flush(maxCrop: 0.05)),
                                             delegate: FixedHeights([100, 90]))
            #expect(strict.flushLine == nil)
            #expect(strict.columnBottoms == [110, 100])
        }

        /// Across a band, at random widths: the footer is under every tile, no tile is reshaped past
        /// the limit, only columns' last tiles change, and across the level widths every column ends
        /// on the band's line.
        @Test func bandsStayFlushAndSafeAtEveryWidth() throws {
            var random = SplitMix64(seed: 32)
            var flushBands = 0
            for _ in 0..<50 {
                let configuration = Self.randomFlushConfiguration(&random)
                let limit = configuration.bottom.maxCrop!
                let items = try SizedItems(displaySizes: random.displaySizes(count: random.nextInt(in: 0...40)))
                let start = configuration.containerWidth(forItemWidth: 40)
                let bands = [Band(minimumWidth: start, columnCount: configuration.columnCount),
                             Band(minimumWidth: start + 500, columnCount: configuration.columnCount + 1)]
                let responsive = try ResponsiveLayout(bands: bands, configuration: configuration, items: items)
                for band in responsive.bands {
                    if band.flush != nil { flushBands += 1 }
                    for _ in 0..<8 {
                        let width = random.nextDouble(in: band.servedWidths.lowerBound..<min(band.servedWidths.upperBound, start + 6000))
                        guard band.itemWidth.evaluate(at: width) > 0 else { continue }
                        let layout = try band.layout(atWidth: width)
                        let lowest = layout.itemAttributes.map(\.frame.maxY).max() ?? 0
                        #expect(layout.footerY >= lowest + configuration.edgeInsets.bottom - 1e-9 * max(1, lowest))
                        for item in layout.itemAttributes {
                            let natural = band.itemFrames[item.index].height.evaluate(at: width)
                            #expect(Self.cropShare(natural: natural, shown: item.frame.height) <= limit + 1e-9)
                        }
                        guard let flush = band.flush, flush.levelWidths.contains(width) else { continue }
                        let line = flush.line.evaluate(at: width)
                        for bottom in layout.columnBottoms { #expect(nearlyEqual(bottom, line, relative: 1e-8)) }
                        #expect(nearlyEqual(layout.footerY, line + configuration.edgeInsets.bottom, relative: 1e-8))
                    }
                }
            }
            #expect(flushBands >= 15, "the random bands must exercise flush bottoms (\(flushBands) did)")
        }

        /// The README's figure, on a smaller fixed sample: with 15% crops, phone-like galleries end
        /// flush at 5 columns (the hardest) at least 85% of the time (the bench measures 94% on 1,000).
        @Test func phoneLikeGalleriesMostlyEndFlush() throws {
            let share = try PhoneLikeGallery.flushShare(seed: 12, count: 60, columnCount: 5, maxCrop: 0.15)
            #expect(share >= 0.85)
        }

        @Test func aCropLimitOfOneOrMoreIsInvalid() {
            for limit in [1, -0.1, 2] {
                #expect(throws: LayoutError.invalidMaxCrop(limit)) {
                    try WaterfallLayout(containerWidth: 340, configuration: WaterfallConfiguration(bottom: .flush(maxCrop: limit)),
                                        delegate: FixedHeights([1]))
                }
            }
        }
    }
}
