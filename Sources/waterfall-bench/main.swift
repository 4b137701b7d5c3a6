// `make bench-layout`: lays out a million photos (release build) and prints time, peak memory and the
// rect-query time. A figure printer, not a test: nothing here asserts on speed.
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import WaterfallKit

let itemCount = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1_000_000 : 1_000_000
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
func fixed(_ value: Double, _ decimals: Int) -> String {
    let scale = Double([1, 10, 100, 1000][decimals])
    return String((value * scale).rounded() / scale)
}
print("layout of \(itemCount) items (3 columns, 1280 px, shortest column), best of 3: \(fixed(layoutTimes.min()! * 1000, 1)) ms")
print("rect query (a 1280×900 viewport at random heights), best mean of 3: \(fixed(queryTimes.min()! / 1000, 2)) µs")
print("peak resident memory of the whole run (inputs, layout, queries): \(fixed(peakMB, 1)) MB")
