import Foundation
import Testing
@testable import WaterfallKit

/// Themes may come from anyone: each trick here either works or fails with a one-line error.
struct MustacheHostileTests {
    private func render(_ source: String, _ value: TemplateValue = [:]) throws -> String {
        try Template(source: source, name: "page.mustache").render(value)
    }

    private func message(_ source: String) -> String? {
        do {
            _ = try render(source)
            return nil
        } catch {
            return "\(error)"
        }
    }

    // MARK: Errors that stay on one line

    /// Tag text quoted in an error is cut to 60 characters and its control characters are escaped, so a
    /// hostile tag cannot make the error span lines or screens.
    @Test(arguments: [
        ("{{a\nb}}", #"page.mustache:1:1: bad tag name 'a\nb'"#),
        ("x {{\r\n\t}}", #"page.mustache:1:3: empty tag '{{\r\n\t}}'"#),
        ("{{=<%\n%>\n%%=}}",
         #"page.mustache:1:1: bad set-delimiter tag '{{=<%\n%>\n%%=}}': expected two delimiters without '=', separated by a space, as in {{=<% %>=}}"#),
        ("{{a \u{1B}[2Jb}}", #"page.mustache:1:1: bad tag name 'a \u{1B}[2Jb'"#),
        ("{{a " + String(repeating: "b", count: 200) + "}}",
         "page.mustache:1:1: bad tag name 'a " + String(repeating: "b", count: 57) + "…'"),
        ("{{#a}}{{/" + String(repeating: "z", count: 100) + "}}",
         "page.mustache:1:7: mismatched closing tag '" + String(repeating: "z", count: 59) + "…' (open section is 'a' from line 1)"),
    ])
    func errorsQuoteTagsOnOneLine(source: String, expected: String) {
        #expect(message(source) == expected)
        #expect(message(source)?.contains("\n") == false)
    }

    @Test func fileNamesInErrorsStayOnOneLine() {
        #expect(TemplateError(file: "theme/evil\nname.mustache", line: 2, column: 3, message: "m").description
            == #"theme/evil\nname.mustache:2:3: m"#)
    }
}
