/// A repeatable measurement of the layout engine, for the CLI or a release-mode run; tests never
/// assert on its timings.
public enum LayoutBenchmark {
    /// Lays out `itemCount` photos with pseudo-random (seeded, so repeatable) aspect ratios in the
    /// default configuration on a 1280 px board, then asks `queryCount` viewport-sized rect
    /// queries (1280 × 900 px at random heights).
    ///
    /// Returns the layout time (`prepare()` only, not building the input) in seconds and the mean
    /// time of one rect query in nanoseconds. Build in release mode for meaningful figures.
    public static func run(
        itemCount: Int = 1_000_000,
        queryCount: Int = 10_000
    ) throws(LayoutError) -> (layoutSeconds: Double, queryNanoseconds: Double) {
        precondition(itemCount >= 0 && queryCount > 0, "itemCount must be ≥ 0 and queryCount > 0")
        var random = SplitMix64(seed: 0x5EED_1A70_07)
        let sizes = (0..<itemCount).map { _ in
            Size(width: random.nextDouble(in: 800..<4000), height: random.nextDouble(in: 600..<4000))
        }
        let items = try SizedItems(displaySizes: sizes)
        let clock = ContinuousClock()

        var built: Result<WaterfallLayout, LayoutError>?
        let layoutDuration = clock.measure {
            built = Result { () throws(LayoutError) in
                try WaterfallLayout(containerWidth: 1280, delegate: items)
            }
        }
        let layout = try built!.get()

        let viewportHeight = 900.0
        let tops = (0..<queryCount).map { _ in
            random.nextDouble(in: 0..<max(layout.contentSize.height - viewportHeight, 1))
        }
        var found = 0
        let queryDuration = clock.measure {
            for top in tops {
                found &+= layout.layoutAttributesForElements(
                    in: Rect(x: 0, y: top, width: 1280, height: viewportHeight)
                ).count
            }
        }
        // Keeps the queries observable so the optimiser cannot drop them.
        precondition(found >= 0)
        return (seconds(layoutDuration), seconds(queryDuration) * 1e9 / Double(queryCount))
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
