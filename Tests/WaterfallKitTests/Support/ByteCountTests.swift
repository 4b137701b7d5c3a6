import Testing
@testable import WaterfallKit

struct ByteCountTests {
    @Test func downloadSizesReadAsPeopleReadThem() {
        let cases: [(Int, String)] = [
            (0, "0 bytes"), (1, "1 byte"), (999, "999 bytes"), (1000, "1 KB"), (1049, "1 KB"), (1050, "1.1 KB"),
            (9_949, "9.9 KB"), (9_950, "10 KB"), (47_312, "47 KB"), (999_499, "999 KB"), (999_500, "1 MB"),
            (4_200_000, "4.2 MB"), (123_456_789, "123 MB"), (1_300_000_000, "1.3 GB"), (20_000_000_000, "20 GB"),
            (3_000_000_000_000, "3000 GB"),
        ]
        for (bytes, text) in cases {
            #expect(ByteCount.size(bytes) == text, "\(bytes)")
        }
    }
}
