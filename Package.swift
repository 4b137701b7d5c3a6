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
        // The only C code: libjpeg-turbo and libpng behind setjmp error managers.
        .target(
            name: "CImageIO",
            cSettings: [.define("_FILE_OFFSET_BITS", to: "64")],
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16")]
        ),
        .target(name: "WaterfallKit", dependencies: ["CImageIO"]),
        .executableTarget(name: "waterfall", dependencies: ["WaterfallKit"]),
        .executableTarget(name: "waterfall-bench", dependencies: ["WaterfallKit"]),
        .testTarget(
            name: "WaterfallKitTests",
            dependencies: ["WaterfallKit"],
            exclude: ["Fixtures"]
        ),
    ]
)
