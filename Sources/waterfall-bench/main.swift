// `make bench-layout`: lays out a million photos (release build) and prints time, peak memory and the
// rect-query time, then the bottom spread of every placement policy over generated phone-like
// galleries. A figure printer, not a test: nothing here asserts on speed.
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import WaterfallKit

let itemCount = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1_000_000 : 1_000_000
let galleryCount = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 1000 : 1000
var layoutTimes: [Double] = []
var queryTimes: [Double] = []
for _ in 0..<3 {
    let (layout, query) = try LayoutBenchmark.run(itemCount: itemCount)
    layoutTimes.append(layout)
    queryTimes.append(query)
}
var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
let peakMB = Double(usage.ru_maxrss) / 1024  // ru_maxrss is in KiB on Linux
func padded(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}
func fixed(_ value: Double, _ decimals: Int) -> String {
    let scale = Double([1, 10, 100, 1000][decimals])
    return String((value * scale).rounded() / scale)
}
let policy = WaterfallConfiguration().placement.name
print("layout of \(itemCount) items (3 columns, 1280 px, \(policy) placement), best of 3: \(fixed(layoutTimes.min()! * 1000, 1)) ms")
print("rect query (a 1280×900 viewport at random heights), best mean of 3: \(fixed(queryTimes.min()! / 1000, 2)) µs")
print("peak resident memory of the layout runs (inputs, layout, queries): \(fixed(peakMB, 1)) MB")

print("\nbottom spread (tallest − shortest column bottom) in tile widths, \(galleryCount) phone-like galleries of")
print("20–200 photos, 240 px tiles, 10 px spacing: median / 90th percentile")
print("policy        2 columns     3 columns     4 columns     5 columns")
for placement in [PlacementPolicy.balanced, .shortestColumn, .roundRobin] {
    var row = padded(placement.name, 12)
    for columns in 2...5 {
        let spreads = try PhoneLikeGallery.spreads(seed: 12, count: galleryCount, columnCount: columns, placement: placement)
        let cell = "\(fixed(PhoneLikeGallery.percentile(0.5, of: spreads), 2)) / \(fixed(PhoneLikeGallery.percentile(0.9, of: spreads), 2))"
        row += "  " + padded(cell, 12)
    }
    print(row)
}

print("\nflush bottom (crop at most 15% of a last tile): share of the same galleries that end flush")
var flushRow = padded("one width", 12)
for columns in 2...5 {
    let share = try PhoneLikeGallery.flushShare(seed: 12, count: galleryCount, columnCount: columns, maxCrop: 0.15)
    flushRow += "  " + padded("\(fixed(share * 100, 1))%", 12)
}
print(flushRow)
// The site's default bands: 2 columns from 320 px, 3 from 600, 4 from 900, 5 from 1400.
let siteBands = [Band(minimumWidth: 320, columnCount: 2), Band(minimumWidth: 600, columnCount: 3),
                 Band(minimumWidth: 900, columnCount: 4), Band(minimumWidth: 1400, columnCount: 5)]
var bandRow = padded("whole band", 12)
for band in 0..<4 {
    let share = try PhoneLikeGallery.bandFlushShare(seed: 12, count: galleryCount, bands: siteBands, band: band, maxCrop: 0.15)
    bandRow += "  " + padded("\(fixed(share * 100, 1))%", 12)
}
print(bandRow + "  (the site's bands: 320–600, 600–900, 900–1400, 1400–3840 px)")
