/// What identifies the code that renders pages, for the pages' digests: a page made by other code (a new
/// build of Waterfall, even one with the same version number) is rendered again, since the layout engine,
/// the CSS it writes or the URLs it makes may have changed. On Linux, the content hash of the running
/// executable; elsewhere, or when it cannot be read, the version with `SitePages.contextVersion`.
enum RendererIdentity {
    static func current() -> String {
        // `/proc/self/exe` is the running binary itself, even if its file was replaced since it started.
        if let file = try? OpenFile.open("/proc/self/exe"), let digest = try? file.contentDigest() {
            return "executable " + digest.hex
        }
        return "version \(WaterfallCLI.version) \(SitePages.contextVersion)"
    }
}
