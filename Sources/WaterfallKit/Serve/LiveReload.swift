import Synchronization

/// Tells the pages `serve` hands out that the site was built again: each carries a small script that
/// listens at `path` (server-sent events) and reloads the page when the build number it hears changes.
/// The built site never holds the script: it is added to pages as they are served.
final class LiveReload: Sendable {
    /// Begins with a dot, so no file of a site can be at it (`SiteFiles` answers none).
    static let path = "/.waterfall-live"

    private let builds = Atomic<Int>(0)
    /// Differs between runs of `serve`, so a page reconnecting to a restarted server reloads too.
    let run: String

    init(run: String) { self.run = run }

    var build: Int { builds.load(ordering: .acquiring) }

    /// Says a build finished: every open page reloads.
    func built() { builds.add(1, ordering: .releasing) }

    /// What the event stream sends: the run and the build.
    var stamp: String { "\(run)-\(build)" }

    /// The script, added before `</body>`. It listens only while its page is shown: browsers give a host six
    /// connections, and a stream held open by each background tab would use them up.
    static let script = Array("""
        <script>(function(){var last,s;function open(){if(s)return;s=new EventSource("\(path)");\
        s.onmessage=function(e){if(last&&e.data!==last)location.reload();last=e.data}}\
        function shut(){if(s){s.close();s=null}}\
        document.addEventListener("visibilitychange",function(){document.hidden?shut():open()});\
        addEventListener("pagehide",shut);addEventListener("pageshow",function(){if(!document.hidden)open()});\
        if(!document.hidden)open()})();</script>
        """.utf8)

    /// `page` with the script before its last `</body>` (at its end when it has none).
    static func inject(into page: [UInt8]) -> [UInt8] {
        let end = Array("</body>".utf8)
        var at = page.count
        if page.count >= end.count {
            for index in stride(from: page.count - end.count, through: 0, by: -1) where page[index..<index + end.count].elementsEqual(end) {
                at = index
                break
            }
        }
        return Array(page[..<at]) + script + Array(page[at...])
    }
}
