import Foundation
import Testing
@testable import WaterfallKit

/// Themes may come from anyone. Beyond the limits (MustacheLimitTests), each trick here either works or
/// fails with a one-line error.
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

    // MARK: Long tags, and errors that stay on one line

    @Test func longCommentsAndTextWork() throws {
        let long = String(decoding: [UInt8](repeating: UInt8(ascii: "c"), count: 1 << 20), as: UTF8.self)
        #expect(try render("a{{! \(long) }}b{{x}}", ["x": .string(long)]) == "ab" + long)
    }

    /// Tag text quoted in an error is cut to 60 characters and its control characters are escaped, so a
    /// hostile tag cannot make the error span lines or screens.
    @Test(arguments: [
        ("{{a\nb}}", #"page.mustache:1:1: bad tag name 'a\nb'"#),
        ("x {{\r\n\t}}", #"page.mustache:1:3: empty tag '{{\r\n\t}}'"#),
        ("{{=<%\n%>\n%%=}}",
         #"page.mustache:1:1: bad set-delimiter tag '{{=<%\n%>\n%%=}}': expected two delimiters without '=', separated by a space, as in {{=<% %>=}}"#),
        ("{{a \u{1B}[2Jb}}", #"page.mustache:1:1: bad tag name 'a \u{1B}[2Jb'"#),
        ("{{#" + String(repeating: "é", count: 300) + "}}",
         "page.mustache:1:1: tag name '" + String(repeating: "é", count: 59) + "…' is longer than 256 bytes (the limit)"),
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

    // MARK: Set-delimiter tricks

    @Test(arguments: [
        ("{{=| |=}}|x||={{ }}=|{{x}}", "11"),
        ("{{=$ $=}}$x$ $#l$[$.$]$/l$", "1 [a][b]"),
        ("{{={{{ }}}=}}{{{x}}}{{{{x}}}}", "11"),
        ("{{=<{{ }}>=}}<{{x}}>{{x}}", "1{{x}}"),
        ("{{=<% %>=}}<%! {{x}} %><%={{ }}=%>{{x}}", "1"),
        ("{{=[ ]=}}[x][={{ }}=]", "1"),
    ])
    func setDelimiterTricks(source: String, expected: String) throws {
        #expect(try render(source, ["x": 1, "l": ["a", "b"]]) == expected)
    }

    @Test(arguments: [
        ("{{= =}}", "page.mustache:1:1: bad set-delimiter tag '{{= =}}': expected two delimiters without '=', separated by a space, as in {{=<% %>=}}"),
        ("{{=a=}}", "page.mustache:1:1: bad set-delimiter tag '{{=a=}}': expected two delimiters without '=', separated by a space, as in {{=<% %>=}}"),
        ("{{=<% %>=}}\n<%x", "page.mustache:2:1: unclosed tag: no '%>' after '<%'"),
        ("{{=<% %>=}}{{x}}<%=| |=%>|#a|", "page.mustache:1:26: unclosed section 'a'"),
    ])
    func setDelimiterMistakes(source: String, expected: String) {
        #expect(message(source) == expected)
    }

    // MARK: Theme folders

    /// A partial is looked up by name among the folder's templates, never opened as a path.
    @Test func partialsNamedLikePathsReadNothing() throws {
        let outside = try TemporaryFolder()
        try outside.write("secret.mustache", Array("SECRET".utf8))
        try outside.write("theme/sub/inner.mustache", Array("INNER".utf8))
        try outside.write("theme/page.mustache",
                          Array("[{{>../secret}}][{{>\(outside.path)/secret}}][{{>sub/inner}}][{{>/etc/passwd}}][{{>.}}]".utf8))
        let library = try TemplateLibrary(folder: outside.path + "/theme")
        #expect(library.names == ["page"])
        #expect(try library.render(name: "page", value: [:]) == "[][][][][]")
    }

    @Test func thousandsOfPartialsWork() throws {
        let theme = try TemporaryFolder()
        let count = 2_000
        for index in 0..<count {  // plain write(2): Foundation's writes sync each file, seconds for thousands
            let descriptor = open(theme.path + "/p\(index).mustache", O_WRONLY | O_CREAT | O_EXCL, 0o644)
            #expect(descriptor >= 0 && write(descriptor, "\(index),", "\(index),".utf8.count) > 0 && close(descriptor) == 0)
        }
        try theme.write("page.mustache", Array((0..<count).map { "{{>p\($0)}}" }.joined().utf8))
        let library = try TemplateLibrary(folder: theme.path)
        #expect(library.names.count == count + 1)
        #expect(try library.render(name: "page", value: [:]) == (0..<count).map { "\($0)," }.joined())
        #expect(throws: TemplateError(file: theme.path + "/photo.mustache",
                                      message: "no such template (templates: p0, p1, p10, p100, p1000, p1001, p1002, p1003, "
                                        + "p1004, p1005 and 1991 more)")) {
            try library.render(name: "photo", value: [:])
        }
    }

    /// A 100 MB template file (sparse here) is refused after reading just past the limit.
    @Test func aHugeTemplateFileIsRefused() throws {
        let theme = try TemporaryFolder()
        let file = try theme.write("page.mustache", [])
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.truncate(atOffset: 100_000_000)
        try handle.close()
        #expect(throws: TemplateError(file: file, message: "the template is larger than the 16 MiB limit")) {
            try TemplateLibrary(folder: theme.path)
        }
    }

    /// A FIFO would block the build forever and /dev/zero never ends: only regular files are read.
    @Test func specialFilesAreRefused() throws {
        let fifoTheme = try TemporaryFolder()
        let fifo = fifoTheme.path + "/footer.mustache"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: TemplateError(file: fifo, message: "cannot read: not a regular file (a FIFO)")) {
            try TemplateLibrary(folder: fifoTheme.path)
        }
        let zeroTheme = try TemporaryFolder()
        let zero = zeroTheme.path + "/zero.mustache"
        try FileManager.default.createSymbolicLink(atPath: zero, withDestinationPath: "/dev/zero")
        #expect(throws: TemplateError(file: zero, message: "cannot read: not a regular file (a character device)")) {
            try TemplateLibrary(folder: zeroTheme.path)
        }
    }
}
