import Dispatch

/// Two independent pieces of work at once, on two threads when the machine has them.
enum Parallel {
    static func both<A: Sendable, B: Sendable>(_ first: @Sendable () -> A, _ second: @Sendable () -> B) -> (A, B) {
        nonisolated(unsafe) var a: A?
        nonisolated(unsafe) var b: B?
        // Each slot is written by exactly one of the two iterations, and read after both have finished.
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 { a = first() } else { b = second() }
        }
        return (a!, b!)
    }
}
