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
