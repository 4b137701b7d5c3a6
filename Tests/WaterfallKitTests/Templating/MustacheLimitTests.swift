import Testing
@testable import WaterfallKit

/// Each of `TemplateLimits`: exactly at the limit works, one past it is an error that says the limit and
/// points at the tag (`file:line:column`) or names the template.
struct MustacheLimitTests {
    let limits = TemplateLimits.standard

    private func nested(_ depth: Int, _ inner: String = "x") -> String {
        String(repeating: "{{#a}}", count: depth) + inner + String(repeating: "{{/a}}", count: depth)
    }

    /// `count` times "x", made quickly (a debug build's `String(repeating:count:)` takes seconds for 64 MiB).
    private func bytes(_ count: Int) -> String {
        String(decoding: [UInt8](repeating: UInt8(ascii: "x"), count: count), as: UTF8.self)
    }

    /// The one-line text of the `TemplateError` that `body` throws; nil when it throws nothing.
    private func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as TemplateError {
            return error.description
        } catch {
            return "not a TemplateError: \(error)"
        }
    }

    // MARK: Sections within sections, in one template

    @Test func sectionsNestUpToTheLimitInOneTemplate() throws {
        #expect(limits.sectionDepth == 100)
        #expect(try Template(source: nested(100), name: "page.mustache").render(["a": true]) == "x")
        #expect(message { _ = try Template(source: "<p>\n" + nested(101), name: "page.mustache") }
            == "page.mustache:2:601: section 'a' nested more than 100 deep (the limit for sections within sections in one template)")
    }

    /// The theme that crashed the build: the error comes before any deep tree exists to be freed.
    @Test func aHundredThousandNestedSectionsAreAnErrorNotACrash() {
        #expect(message { _ = try Template(source: nested(100_000), name: "page.mustache") }
            == "page.mustache:1:601: section 'a' nested more than 100 deep (the limit for sections within sections in one template)")
        #expect(message { _ = try Template(source: String(repeating: "{{^b}}", count: 100_000), name: "page.mustache") }
            == "page.mustache:1:601: section 'b' nested more than 100 deep (the limit for sections within sections in one template)")
    }

    // MARK: Sections and partials, across partials

    /// Eleven partials of 90 sections each, each including the next inside its sections: depth 11 × 90 +
    /// 10 partials = 1,000. The last one's `last` sections take it to exactly `total`.
    private func chain(last: Int) throws -> [String: Template] {
        var partials: [String: Template] = [:]
        for index in 0..<11 {
            let inner = index < 10 ? "{{>t\(index + 1)}}" : "x"
            partials["t\(index)"] = try Template(source: nested(index < 10 ? 90 : last, inner), name: "t\(index).mustache")
        }
        return partials
    }

    @Test func sectionsAndPartialsNestUpToTheLimitOnASmallStack() throws {
        #expect(limits.renderDepth == 1000)
        let atLimit = try chain(last: 90)
        let rendered = SmallStackThread.run { Result { () throws(TemplateError) in
            try atLimit["t0"]!.render(["a": true], partials: atLimit)
        } }
        #expect(try rendered.get() == "x")
        let over = try chain(last: 91)
        #expect(message { _ = try over["t0"]!.render(["a": true], partials: over) }
            == "t10.mustache:1:541: sections and partials nested more than 1,000 deep, counted across partials "
            + "(does a partial include itself?)")
        // The deepest partial nesting, each partial inside a section: also the right tag, in the caller.
        let loop = ["loop": try Template(source: "{{#a}}\n  {{>loop}}{{/a}}", name: "loop.mustache")]
        #expect(message { _ = try Template(source: "{{>loop}}", name: "page.mustache").render(["a": [true]], partials: loop) }
            == "loop.mustache:2:3: partial 'loop' nested more than 100 deep (does it include itself with nothing to stop it?)")
    }

    /// The renderer keeps its own stack: with the limits raised far past the standard ones, nesting 20,000
    /// deep still renders on a 512 KiB thread stack (recursing per level overflowed it at about 100).
    @Test func renderingDepthDoesNotUseTheThreadStack() throws {
        var raised = TemplateLimits()
        raised.partialDepth = 10_000
        raised.renderDepth = 20_000
        let partials = ["p": try Template(source: "{{#.}}{{>p}}{{/.}}", name: "p.mustache", limits: raised)]
        let page = try Template(source: "{{>p}}", name: "page.mustache", limits: raised)
        let outcome = SmallStackThread.run { Result { () throws(TemplateError) in
            try page.render(true, partials: partials, limits: raised)
        } }
        #expect(throws: TemplateError(file: "p.mustache", line: 1, column: 7,
                                      message: "partial 'p' nested more than 10,000 deep (does it include itself with nothing to stop it?)")) {
            try outcome.get()
        }
    }

    // MARK: The size of a page

    @Test func aPageMayBeExactlyTheSizeLimit() throws {
        #expect(limits.pageBytes == 64 << 20)
        let page = try Template(source: "<p>{{{big}}}</p>", name: "page.mustache")
        let fits = bytes((64 << 20) - 7)
        #expect(try page.render(["big": .string(fits)]).utf8.count == 64 << 20)
        #expect(message { _ = try page.render(["big": .string(fits + "y")]) }
            == "page.mustache: the rendered page passed the 64 MiB limit (do partials include each other?)")
    }

    /// Partials that each include the next twice: 2^24 copies of a 1 KiB paragraph would be 16 GiB. It stops
    /// at the limit, having rendered only what fits (about 2^16 paragraphs), not the whole page.
    @Test func partialsThatDoubleStopAtTheSizeLimit() throws {
        let counter = CountingPartials()
        for level in 0..<24 {
            counter.partials["p\(level)"] = try Template(source: "{{>p\(level + 1)}}{{>p\(level + 1)}}", name: "p\(level).mustache")
        }
        counter.partials["p24"] = try Template(source: "<p>" + String(repeating: "x", count: 1016) + "</p>\n", name: "p24.mustache")
        #expect(message { _ = try Template(source: "{{>p0}}", name: "photo.mustache").render([:], partials: counter) }
            == "photo.mustache: the rendered page passed the 64 MiB limit (do partials include each other?)")
        #expect(counter.lookups > 100_000 && counter.lookups < 200_000, "\(counter.lookups) partials rendered")
    }

    /// Standalone partials' indentation adds up through nesting; it is written in pieces and counted.
    @Test func nestedIndentationCountsTowardsTheSize() throws {
        let indent = String(repeating: " ", count: 1 << 20)
        let partials = ["p": try Template(source: "x\n\(indent){{>p}}\n", name: "p.mustache")]
        #expect(message { _ = try Template(source: "{{>p}}", name: "page.mustache").render([:], partials: partials) }
            == "page.mustache: the rendered page passed the 64 MiB limit (do partials include each other?)")
    }

    // MARK: The work of a page

    /// `{{#items}}{{/items}}` over n items takes n + 3 steps: the section tag, its lookup, one per item and
    /// the end of the page.
    @Test func renderingStopsAtTheStepLimit() throws {
        #expect(limits.renderSteps == 20_000_000)
        var small = TemplateLimits()
        small.renderSteps = 1000
        let page = try Template(source: "{{#items}}{{/items}}", name: "page.mustache")
        #expect(try page.render(["items": .list(Array(repeating: 1, count: 997))], partials: NoPartials(), limits: small) == "")
        #expect(message { _ = try page.render(["items": .list(Array(repeating: 1, count: 998))], partials: NoPartials(), limits: small) }
            == "page.mustache: rendering the page took more than the limit of 1,000 steps (do partials include each "
            + "other, or sections repeat over lists in lists?)")
    }

    /// Partials that double with nothing to write: no size limit would stop them; the step limit does.
    @Test func partialsThatDoubleWithoutOutputStopAtTheStepLimit() throws {
        var small = TemplateLimits()
        small.renderSteps = 100_000
        var partials: [String: Template] = [:]
        for level in 0..<60 {
            partials["p\(level)"] = try Template(source: "{{>p\(level + 1)}}{{>p\(level + 1)}}", name: "p\(level).mustache")
        }
        partials["p60"] = try Template(source: "{{#missing}}{{/missing}}", name: "p60.mustache")
        #expect(message { _ = try Template(source: "{{>p0}}", name: "page.mustache").render([:], partials: partials, limits: small) }
            == "page.mustache: rendering the page took more than the limit of 100,000 steps (do partials include each "
            + "other, or sections repeat over lists in lists?)")
    }

    // MARK: Template files, delimiters and names

    @Test func aTemplateMayBeExactlyTheSizeLimit() throws {
        #expect(limits.templateBytes == 16 << 20)
        let text = bytes(16 << 20)
        #expect(try Template(source: text, name: "page.mustache").nodes.count == 1)
        #expect(message { _ = try Template(source: text + "y", name: "page.mustache") }
            == "page.mustache: the template is larger than the 16 MiB limit")
    }

    @Test func delimitersMayBeUpToTheLimit() throws {
        #expect(limits.delimiterBytes == 16)
        let open = String(repeating: "<", count: 16), close = String(repeating: ">", count: 16)
        #expect(try Template(source: "{{=\(open) \(close)=}}\(open)x\(close)", name: "page.mustache").render(["x": 1]) == "1")
        #expect(message { _ = try Template(source: "{{=<\(open) \(close)=}}", name: "page.mustache") }
            == "page.mustache:1:1: bad set-delimiter tag '{{=<\(open) \(close)=}}': a delimiter may be at most 16 bytes long")
    }

    @Test func namesMayBeUpToTheLimit() throws {
        #expect(limits.nameBytes == 256)
        let name = String(repeating: "n", count: 256)
        #expect(try Template(source: "{{\(name)}}{{>\(name)}}", name: "page.mustache").render([name: "v"]) == "v")
        #expect(message { _ = try Template(source: "a\n{{#\(name)n}}", name: "page.mustache") }
            == "page.mustache:2:1: tag name '\(String(repeating: "n", count: 59))…' is longer than 256 bytes (the limit)")
    }
}

/// Partials from a dictionary, counting how many times one is included.
final class CountingPartials: PartialProvider, @unchecked Sendable {
    var partials: [String: Template] = [:]
    private(set) var lookups = 0

    func partial(named name: String) -> Template? {
        lookups += 1
        return partials[name]
    }
}
