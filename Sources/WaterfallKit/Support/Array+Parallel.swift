import Dispatch
import Synchronization

extension Array where Element: Sendable {
    /// `map` on up to `jobs` threads; results keep the input order. Workers take the next index from a
    /// shared counter, so one slow item (a cold file) does not hold up a whole pre-cut chunk.
    func parallelMap<Result: Sendable>(jobs: Int, _ transform: @Sendable (Element) -> Result) -> [Result] {
        let workers = Swift.min(Swift.max(jobs, 1), count)
        guard workers > 1 else { return map(transform) }
        let next = Atomic<Int>(0)
        // Each result is made in its place in the array that is returned: no slot of optionals to copy out
        // of (and to release: a slot buffer that was only deallocated kept every result alive for good).
        return [Result](unsafeUninitializedCapacity: count) { results, initialized in
            nonisolated(unsafe) let slots = results  // each index is written by exactly one worker
            self.withUnsafeBufferPointer { items in
                nonisolated(unsafe) let items = items
                DispatchQueue.concurrentPerform(iterations: workers) { _ in
                    while true {
                        let index = next.add(1, ordering: .relaxed).oldValue
                        guard index < items.count else { return }
                        (slots.baseAddress! + index).initialize(to: transform(items[index]))
                    }
                }
            }
            initialized = count
        }
    }
}

extension Array where Element: Sendable {
    /// Changes every element in place on up to `jobs` threads (no element is copied: a large value, such as
    /// an album's photos, is changed where it is).
    mutating func parallelUpdate(jobs: Int, _ update: @Sendable (inout Element) -> Void) {
        let workers = Swift.min(Swift.max(jobs, 1), count)
        guard workers > 1 else {
            for index in indices { update(&self[index]) }
            return
        }
        let next = Atomic<Int>(0)
        withUnsafeMutableBufferPointer { items in
            nonisolated(unsafe) let items = items  // each index is changed by exactly one worker
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while true {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < items.count else { return }
                    update(&items[index])
                }
            }
        }
    }
}
