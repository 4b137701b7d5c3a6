/// What identifies the code that renders pages, for the pages' digests: a page made by other code (a new
/// build of Waterfall, even one with the same version number) is rendered again, since the layout engine,
/// the CSS it writes or the URLs it makes may have changed. On Linux, the content hash of the running
/// executable; nil elsewhere, or when it cannot be read, where the digests' version and
/// `Versions.pages` stand alone.
enum RendererIdentity {
    static func executableDigest() -> ContentDigest? {
        // `/proc/self/exe` is the running binary itself, even if its file was replaced since it started.
        guard let file = try? OpenFile.open("/proc/self/exe") else { return nil }
        return try? file.contentDigest()
    }
}
