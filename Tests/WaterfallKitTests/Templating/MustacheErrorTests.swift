import Testing
@testable import WaterfallKit

/// Every syntax error, with the exact one-line text the CLI prints.
struct MustacheErrorTests {
    static let syntaxErrors: [(source: String, expected: String)] = [
        ("<ul>\n  {{#tiles}}\n  <li>{{title}}</li>\n</ul>\n",
         "page.mustache:2:3: unclosed section 'tiles'"),
        ("{{#a}}{{#b}}{{/b}}\n{{#c}}\n",
         "page.mustache:2:1: unclosed section 'c'"),
        ("<ul>\n{{#tiles}}\n    <li>{{/foo}}\n",
         "page.mustache:3:9: mismatched closing tag 'foo' (open section is 'tiles' from line 2)"),
        ("a\n{{/tiles}}",
         "page.mustache:2:1: closing tag 'tiles' without an open section"),
        ("Hello {{name",
         "page.mustache:1:7: unclosed tag: no '}}' after '{{'"),
        ("Hello {{{name}}",
         "page.mustache:1:7: unclosed tag: no '}}}' after '{{{'"),
        ("<p>{{name} and {{other}}</p>",
         "page.mustache:1:4: unclosed tag: no '}}' after '{{'"),
        ("x\n  {{ }}",
         "page.mustache:2:3: empty tag '{{ }}'"),
        ("{{#}}{{/}}",
         "page.mustache:1:1: empty tag '{{#}}'"),
        ("{{> }}",
         "page.mustache:1:1: empty tag '{{> }}'"),
        ("{{=<%=}}",
         "page.mustache:1:1: bad set-delimiter tag '{{=<%=}}': expected two delimiters without '=', separated by a space, as in {{=<% %>=}}"),
        ("\n {{= <% %> %% =}}",
         "page.mustache:2:2: bad set-delimiter tag '{{= <% %> %% =}}': expected two delimiters without '=', separated by a space, as in {{=<% %>=}}"),
        ("{{=<= =>=}}",
         "page.mustache:1:1: bad set-delimiter tag '{{=<= =>=}}': expected two delimiters without '=', separated by a space, as in {{=<% %>=}}"),
        ("{{a b}}",
         "page.mustache:1:1: bad tag name 'a b'"),
        ("{{#a..b}}{{/a..b}}",
         "page.mustache:1:1: bad tag name 'a..b'"),
        ("{{>tile extra}}",
         "page.mustache:1:1: bad tag name 'tile extra'"),
        // Errors use the delimiters in force.
        ("{{=<% %>=}}\n<%#list%>\n",
         "page.mustache:2:1: unclosed section 'list'"),
        ("{{=<% %>=}}\n<%name",
         "page.mustache:2:1: unclosed tag: no '%>' after '<%'"),
        // Columns count characters, not bytes: é is 2 bytes and 👍🏽 is 8, each one character.
        ("héllo 👍🏽 {{#x}}",
         "page.mustache:1:9: unclosed section 'x'"),
        ("a\r\nb\r\n{{#x}}",
         "page.mustache:3:1: unclosed section 'x'"),
    ]

    @Test(arguments: syntaxErrors)
    func syntaxError(source: String, expected: String) {
        do {
            _ = try Template(source: source, name: "page.mustache")
            Issue.record("no error for \(source.debugDescription)")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func errorCarriesItsParts() {
        do {
            _ = try Template(source: "one\ntwo {{#x}}", name: "page.mustache")
            Issue.record("expected an error")
        } catch {
            #expect(error == TemplateError(file: "page.mustache", line: 2, column: 5, message: "unclosed section 'x'"))
        }
    }

    @Test func wholeFileErrorsHaveNoLineOrColumn() {
        #expect(TemplateError(file: "theme/page.mustache", message: "not UTF-8 text").description
            == "theme/page.mustache: not UTF-8 text")
    }
}
