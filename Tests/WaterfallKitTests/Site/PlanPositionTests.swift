import Testing
@testable import WaterfallKit

/// A file handed to the writer with its place in the plan is found there without a look-up; a wrong or
/// stale place is only a hint: the path decides.
struct PlanPositionTests {
    @Test func aWrongPositionIsOnlyAHint() throws {
        let root = try TemporaryFolder()
        let output = root.path + "/site"
        let inputs = ContentDigest.of(Array("inputs".utf8))
        do {
            var first = try SiteWriter(output: output)
            try first.plan(["a.html", "b/c.html"])
            try first.write("one", to: "a.html", at: 0, inputs: inputs)
            try first.write("two", to: "b/c.html", at: 0, inputs: inputs)  // the wrong place: found by its path
            _ = try first.commit()
        }
        var second = try SiteWriter(output: output)
        try second.plan(["b/c.html", "a.html"])
        #expect(try second.keep("a.html", at: 1, madeFrom: inputs))
        #expect(try second.keep("b/c.html", at: 7, madeFrom: inputs))
        #expect(throws: FileSystemError.self) { try second.keep("d.html", at: 0, madeFrom: inputs) }
        let outcome = try second.commit()
        #expect(outcome.removed.isEmpty && outcome.leftAlone.isEmpty)
        #expect(String(decoding: try Fixtures.bytes(output + "/b/c.html"), as: UTF8.self) == "two")
    }

    @Test func aPositionOfAnotherSpellingIsNotTaken() throws {
        let root = try TemporaryFolder()
        var writer = try SiteWriter(output: root.path + "/site")
        try writer.plan(["caf\u{E9}.html"])
        // The NFD spelling is another file: not the planned one at position 0.
        #expect(throws: FileSystemError.self) { try writer.write("x", to: "cafe\u{301}.html", at: 0) }
        try writer.write("y", to: "caf\u{E9}.html", at: 0)
        _ = try writer.commit()
        #expect(try Fixtures.siteFiles(in: root.path + "/site") == ["caf\u{E9}.html"])
    }
}
