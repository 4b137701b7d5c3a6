import Synchronization

/// Shows a build's progress on stderr: a live counter and bar on a terminal, plain lines otherwise (logs,
/// CI). Warnings always get a line of their own. Events come from worker threads, hence the lock.
final class ProgressPrinter: Sendable {
    private struct State {
        var lineShown = false
        var lastDrawn: ContinuousClock.Instant?
        var derivingSince: ContinuousClock.Instant?
    }

    private let console: Console
    private let quiet: Bool
    private let state = Mutex(State())
    private static let barWidth = 24

    init(console: Console, quiet: Bool) {
        self.console = console
        self.quiet = quiet
    }

    func handle(_ event: BuildEvent) {
        state.withLock { state in
            switch event {
            case .skipped(let path, let reason):
                clearLine(&state)
                console.error("\(PathText.display(path)): skipped: \(reason)")
            case .warning(let message):
                clearLine(&state)
                console.error("warning: \(message)")
            case .note(let message):
                guard !quiet else { return }
                clearLine(&state)
                console.error("note: \(message)")
            case .reading(let total):
                if !quiet && !console.errorIsTerminal { console.writeError("reading \(total) photo\(total == 1 ? "" : "s")\n") }
            case .read(let done, let total):
                draw("reading", done: done, total: total, eta: nil, state: &state)
            case .deriving(let done, let total):
                let now = ContinuousClock.now
                if done == 0 {
                    state.derivingSince = now
                    if !quiet && !console.errorIsTerminal && total > 0 {
                        console.writeError("reading and making the images of \(total) photo\(total == 1 ? "" : "s")\n")
                    }
                }
                draw("images ", done: done, total: total, eta: Self.eta(done: done, total: total, since: state.derivingSince, now: now),
                     state: &state)
            case .writing(let files):
                clearLine(&state)
                if !quiet && !console.errorIsTerminal { console.writeError("writing \(files) file\(files == 1 ? "" : "s")\n") }
            case .zipping(let album, let photos, let bytes):
                clearLine(&state)
                guard !quiet else { return }
                let name = album.isEmpty ? "the top folder" : PathText.display(album)
                console.writeError("zipping \(name): \(photos) photo\(photos == 1 ? "" : "s"), \(ByteCount.size(bytes))\n")
            }
        }
    }

    /// The closing line: `38 photos, 2 skipped, 0.41 s → _site/index.html` (what was written, shown).
    func finish(_ report: BuildReport, destination: String) {
        state.withLock { clearLine(&$0) }
        guard !quiet else { return }
        let photos = "\(report.photos) photo\(report.photos == 1 ? "" : "s")"
        let hundredths = Int((report.seconds * 100).rounded())
        let seconds = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
        let images = report.imagesMade + report.imagesKept
        let imageText = images == 0 ? "" : ", \(report.imagesMade) of \(images) images made"
        console.writeError("\(photos), \(report.skipped.count) skipped\(imageText), \(seconds) s → \(destination)\n")
    }

    /// A live bar on a terminal, redrawn at most 20 times a second and always at the end.
    private func draw(_ label: String, done: Int, total: Int, eta: String?, state: inout State) {
        guard !quiet && console.errorIsTerminal && total > 0 else { return }
        let now = ContinuousClock.now
        if done < total, let last = state.lastDrawn, now - last < .milliseconds(50) { return }
        state.lastDrawn = now
        let filled = done * Self.barWidth / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: Self.barWidth - filled)
        console.writeError("\r\u{1B}[2K\(label) \(bar) \(done)/\(total)" + (eta.map { "  \($0) left" } ?? ""))
        state.lineShown = true
    }

    /// Time left at the rate so far, once there is a rate to go by.
    static func eta(done: Int, total: Int, since start: ContinuousClock.Instant?, now: ContinuousClock.Instant) -> String? {
        guard let start, done > 0, done < total else { return nil }
        let elapsed = now - start
        let seconds = (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
            / Double(done) * Double(total - done)
        let whole = Int(seconds.rounded(.up))
        return whole < 60 ? "\(whole) s" : "\(whole / 60) min \(whole % 60) s"
    }

    private func clearLine(_ state: inout State) {
        if state.lineShown {
            console.writeError("\r\u{1B}[2K")
            state.lineShown = false
        }
    }
}
