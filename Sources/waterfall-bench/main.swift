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
