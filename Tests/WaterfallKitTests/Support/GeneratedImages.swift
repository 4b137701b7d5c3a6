import Foundation

/// Images made for the tests by Tests/Tools/pngbytes.py: large in pixels, small in bytes (one colour), so that
/// what a photo costs to decode or to derive can be tested without committing megabytes.
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
}
