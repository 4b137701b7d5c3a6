import Synchronization
import Testing
@testable import WaterfallKit

/// `parallelMap` and `parallelUpdate`: the order kept, every item done once, and nothing kept alive after.
struct ParallelMapTests {
    /// How many `Counted` of one test are alive.
    final class Census: Sendable {
        let alive = Atomic<Int>(0)
        var count: Int { alive.load(ordering: .relaxed) }
    }

    /// Counts its instances, so a test sees whether results were let go.
    final class Counted: Sendable {
        let value: Int
        let census: Census

        init(_ value: Int, census: Census) {
            self.value = value
            self.census = census
            census.alive.add(1, ordering: .relaxed)
        }

        deinit { census.alive.subtract(1, ordering: .relaxed) }
    }

    @Test(arguments: [1, 2, 7]) func keepsTheOrderAndDoesEachItemOnce(jobs: Int) {
        let items = Array(0..<10_000)
        let calls = Atomic<Int>(0)
        let squares = items.parallelMap(jobs: jobs) { item -> Int in
            calls.add(1, ordering: .relaxed)
            return item * item
        }
        #expect(squares == items.map { $0 * $0 })
        #expect(calls.load(ordering: .relaxed) == items.count)
        #expect([Int]().parallelMap(jobs: jobs) { $0 }.isEmpty)
    }

    /// A build holds what a parallel step made only as long as it uses it: the slots the workers wrote
    /// into once kept every result (100,000 photos' worth, and more with each rebuild in watch mode).
    @Test(arguments: [1, 2, 4]) func letsGoOfItsResults(jobs: Int) {
        let census = Census()
        do {
            let made = Array(0..<2_000).parallelMap(jobs: jobs) { item in [Counted(item, census: census), Counted(-item, census: census)] }
            #expect(census.count == 4_000)
            #expect(made.map { $0[0].value } == Array(0..<2_000))
        }
        #expect(census.count == 0)
    }

    @Test func updatesEveryElementInPlace() {
        var items = Array(0..<5_000)
        items.parallelUpdate(jobs: 3) { $0 += 1 }
        #expect(items == Array(1...5_000))
    }
}
