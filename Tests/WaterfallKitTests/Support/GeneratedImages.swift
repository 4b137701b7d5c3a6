import Foundation

/// Images made for the tests by Tests/Tools/pngbytes.py and Tests/Hostile/bombs.py: large in pixels, small in
/// bytes (one colour, one tile), so that what a photo costs to decode or to derive can be tested without
/// committing megabytes.
enum GeneratedImages {
    /// A `width`×`height` PNG of zeros at `path`: `depth` bits a sample, `colour` one of `gray`, `rgb`, `rgba`
    /// or `palette`, Adam7 when `interlaced`.
    @discardableResult
    static func png(_ path: String, _ width: Int, _ height: Int, depth: Int = 8, colour: String = "rgb",
                    interlaced: Bool = false) throws -> String {
        let tool = VideoFixtures.toolsFolder.appendingPathComponent("pngbytes.py").path
        try VideoFixtures.run("/usr/bin/python3", [tool, path, "\(width)", "\(height)", "--depth", "\(depth)", "--colour", colour]
                              + (interlaced ? ["--interlace"] : []))
        return path
    }

    /// The bytes of a Python expression over Tests/Hostile/bombs.py (`bombs.webp_lossless(12000, 12000)`) at `path`.
    @discardableResult
    static func bomb(_ expression: String, _ path: String) throws -> String {
        let hostile = VideoFixtures.toolsFolder.deletingLastPathComponent().appendingPathComponent("Hostile").path
        let script = "import sys; sys.path.insert(0, sys.argv[1]); import bombs; open(sys.argv[2], 'wb').write(\(expression))"
        try VideoFixtures.run("/usr/bin/python3", ["-c", script, hostile, path])
        return path
    }
}
