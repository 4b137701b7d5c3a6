import Synchronization

/// Shows a build's progress on stderr: a live counter and bar on a terminal, plain lines otherwise (logs,
/// CI). Warnings always get a line of their own. Events come from worker threads, hence the lock.
final class ProgressPrinter: Sendable {
    private struct State {
        var lineShown = false
        var lastDrawn: ContinuousClock.Instant?
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
                console.error("\(path): skipped: \(reason)")
            case .warning(let message):
                clearLine(&state)
                console.error("warning: \(message)")
            case .reading(let total):
                if !quiet && !console.errorIsTerminal { console.writeError("reading \(total) photo\(total == 1 ? "" : "s")\n") }
            case .read(let done, let total):
                guard !quiet && console.errorIsTerminal else { return }
                let now = ContinuousClock.now
                // Redraw at most 20 times a second, and always at the end.
                if done < total, let last = state.lastDrawn, now - last < .milliseconds(50) { return }
                state.lastDrawn = now
                let filled = total == 0 ? Self.barWidth : done * Self.barWidth / total
                let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: Self.barWidth - filled)
                console.writeError("\r\u{1B}[2Kreading \(bar) \(done)/\(total)")
                state.lineShown = true
            case .writing(let files):
                clearLine(&state)
                if !quiet && !console.errorIsTerminal { console.writeError("writing \(files) file\(files == 1 ? "" : "s")\n") }
            }
        }
    }

    /// The closing line: `38 photos, 2 skipped, 0.41 s → _site/index.html`.
    func finish(_ report: BuildReport, output: String) {
        state.withLock { clearLine(&$0) }
        guard !quiet else { return }
        let photos = "\(report.photos) photo\(report.photos == 1 ? "" : "s")"
        let hundredths = Int((report.seconds * 100).rounded())
        let seconds = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
        console.writeError("\(photos), \(report.skipped.count) skipped, \(seconds) s → \(SiteWriter.join(output, "index.html"))\n")
    }

    private func clearLine(_ state: inout State) {
        if state.lineShown {
            console.writeError("\r\u{1B}[2K")
            state.lineShown = false
        }
    }
}
