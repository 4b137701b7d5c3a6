import Foundation
import Testing

/// Every decode keeps to the 512 MiB decoding budget (docs/safety.md, the hostile test's invariant 8): what
/// would need more is refused from its header, before a pixel is decoded, and costs that photo alone. On the
/// real binary, with files made by Tests/Tools/pngbytes.py.
struct TrustDecoderBudgetTests {
    /// The hostile tester's file: a 1.9 MB Adam7 PNG of 15800×15800 16-bit RGBA. libpng must hold an
    /// interlaced image whole (953 MiB after the transforms to 8 bits a sample): it was decoded, in 23 s and
    /// with 1003 MiB resident. A 1-bit palette image counts as what it expands to (three bytes a pixel).
    @Test func anInterlacedPNGOverTheBudgetIsRefusedFromItsHeader() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try input.copy(Fixtures.inRepository("SampleGallery/gravel.png"), as: "gravel.png")
        try GeneratedImages.png(input.path + "/adam7.png", 15800, 15800, depth: 16, colour: "rgba", interlaced: true)
        try GeneratedImages.png(input.path + "/palette.png", 14000, 14000, depth: 1, colour: "palette", interlaced: true)
        let started = Date()
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path + "/site", "--report", "json", "--quiet"])
        #expect(run.status == 0 && !run.signalled, "\(run.stderr)")
        // Refused from the header: no decoding at all (a decode took 23 s).
        #expect(Date().timeIntervalSince(started) < 10)
        let report = try TrustIsolationTests.report(run)
        #expect(report["photos"] as? Int == 1)
        let limit = "PNG needs more than the 512 MiB decoding limit (a large interlaced file: "
        #expect(TrustIsolationTests.skipped(report) == ["adam7.png": limit + "953 MiB held whole)",
                                                        "palette.png": limit + "561 MiB held whole)"])
        let resized = try WaterfallProcess.run(["resize", input.path + "/adam7.png", "-o", output.path + "/resized", "--width", "100"])
        #expect(resized.status == 1 && !resized.signalled)
        #expect(resized.stderr.contains("adam7.png: \(limit)953 MiB held whole)"), "\(resized.stderr)")
    }

    /// The same class in the other formats, each a small file that took a decoder past 512 MiB and is now
    /// refused from its headers: libwebp's lossless decoder holds the image whole as 32-bit ARGB (675 MiB for
    /// the 30-byte 12000×12000 still), and a lossless frame beside an animation's two canvases (842 MiB); a GIF
    /// keeps a second canvas for a later frame that restores what was under it (605 MiB); libheif holds a
    /// grid's planes beside the RGB it converts them to (1005 and 1011 MiB for 20 KB grids, HEIC and AVIF). A
    /// lossless WebP of one colour that libwebp stores packed (a palette first: eight pixels a word) is still
    /// published.
    @Test func whatOtherDecodersHoldWholeCountsAgainstTheBudget() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        try GeneratedImages.bomb("bombs.webp_lossless(12000, 12000)", input.path + "/lossless.webp")
        try GeneratedImages.bomb("bombs.webp_lossless(12000, 12000, palette=True)", input.path + "/palette.webp")
        try GeneratedImages.bomb("bombs.webp_lossless_animation(8000, 8000, 2)", input.path + "/animation.webp")
        try GeneratedImages.bomb("bombs.gif_restoring(11500, 11500, 2)", input.path + "/restoring.gif")
        try GeneratedImages.bomb("bombs.tiled_grid(b'heic', 12800, 13400)", input.path + "/grid.heic")
        try GeneratedImages.bomb("bombs.tiled_grid(b'avif', 12800, 13400)", input.path + "/grid.avif")
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path + "/site", "--report", "json", "--quiet"])
        #expect(run.status == 0 && !run.signalled, "\(run.stderr)")
        let report = try TrustIsolationTests.report(run)
        #expect(report["photos"] as? Int == 1)
        #expect(TrustIsolationTests.skipped(report) == [
            "lossless.webp": "WebP needs more than the 512 MiB decoding limit (a large lossless file: 653 MiB held whole)",
            "animation.webp": "a 8000×8000 WebP canvas would need 732 MiB, over the 512 MiB limit",
            "restoring.gif": "a 11500×11500 GIF canvas would need 1008 MiB, over the 512 MiB limit",
            "grid.heic": "decoding this HEIF would need 981 MiB, over the 512 MiB limit",
            "grid.avif": "decoding this AVIF would need 981 MiB, over the 512 MiB limit",
        ])
    }
}
