// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Waterfall",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "waterfall", targets: ["waterfall"]),
        .library(name: "WaterfallKit", targets: ["WaterfallKit"]),
    ],
    targets: [
        // The only C code: a folder per format (header, metadata, decode, encode) behind setjmp error
        // managers, the shared plumbing (file source, errors, resampling, the derive pipeline) in common/, and
        // the albums' ZIP archives (through libarchive) in archive/.
        .target(
            name: "CImageIO",
            cSettings: [
                .define("_FILE_OFFSET_BITS", to: "64"),
                .headerSearchPath("common"), .headerSearchPath("jpeg"), .headerSearchPath("png"),
                .headerSearchPath("heif"), .headerSearchPath("webp"), .headerSearchPath("gif"),
                .headerSearchPath("avif"), .headerSearchPath("tiff"), .headerSearchPath("bmp"),
                .headerSearchPath("xmp"), .headerSearchPath("iptc"),
                // Debug builds too: every test builds galleries with the debug binary, and image work at -O0
                // is several times slower. (The output is the same bytes at any level.)
                .unsafeFlags(["-O2"], .when(configuration: .debug)),
            ],
            linkerSettings: [
                .linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("heif"), .linkedLibrary("webp"),
                .linkedLibrary("webpdemux"), .linkedLibrary("webpmux"), .linkedLibrary("gif"),
                .linkedLibrary("avif"), .linkedLibrary("tiff"),
                // Keyed mode's MACs and keyed content hashes (keyed BLAKE2b, crypto_kdf): common/keyed_hash.c.
                .linkedLibrary("sodium"),
                // The albums' archives of their originals (libarchive's zip writer): archive/zip_writer.c.
                .linkedLibrary("archive"),
                // sigal's Markdown sidecars as safe HTML (cmark-gfm, its table extension): markdown/.
                .linkedLibrary("cmark-gfm-extensions"), .linkedLibrary("cmark-gfm"),
                // XMP (xmp/, expat) and IPTC IIM (iptc/, libiptcdata): docs/metadata.md.
                .linkedLibrary("expat"), .linkedLibrary("iptcdata"),
            ]
        ),
        .target(
            name: "WaterfallKit", dependencies: ["CImageIO"],
            // Optimised in debug builds too: the tests run the debug binary on real galleries.
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        .executableTarget(name: "waterfall", dependencies: ["WaterfallKit"]),
        .executableTarget(name: "waterfall-bench", dependencies: ["WaterfallKit"]),
        // Test-only: libjpeg-turbo's own encoder (scanlines and raw planes, optimize_coding), the oracle the
        // JPEG encoder's output is compared with byte for byte.
        .target(name: "CJPEGOracle", path: "Tests/CJPEGOracle", linkerSettings: [.linkedLibrary("jpeg")]),
        .testTarget(
            name: "WaterfallKitTests",
            dependencies: ["WaterfallKit", "CJPEGOracle"],
            exclude: ["Fixtures"]
        ),
    ]
)
