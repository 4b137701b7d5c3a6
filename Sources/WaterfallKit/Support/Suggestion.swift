/// "Did you mean": the known word nearest to a mistyped one, by edit distance (a letter added, left out,
/// changed, or two swapped), when it is near enough to be the likely intent.
enum Suggestion {
    /// The nearest of `candidates` to `word`, or nil when none is within a third of its length (at least
    /// one edit, at most three) and none starts with it.
    static func nearest(to word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased().unicodeScalars)
        guard !typed.isEmpty else { return nil }
        let allowed = min(3, max(1, typed.count / 3))
        var best: (distance: Int, candidate: String)?
        for candidate in candidates where candidate != word {
            let distance = Self.distance(typed, Array(candidate.lowercased().unicodeScalars))
            if distance <= allowed, distance < best?.distance ?? .max { best = (distance, candidate) }
        }
        if let best { return best.candidate }
        // A prefix long enough to mean one thing (`--templ` for `--templates`).
        let prefixed = candidates.filter { $0.lowercased().hasPrefix(word.lowercased()) && typed.count >= 4 }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and adjacent swaps.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], before[j - 2] + 1) }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
