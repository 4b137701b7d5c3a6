import Testing
@testable import WaterfallKit

/// Loading a theme folder of `NAME.mustache` files.
struct MustacheLibraryTests {
    @Test func loadsTheFolderAndRendersWithPartials() throws {
        let folder = try TemporaryFolder()
        try folder.write("page.mustache", Array("<h1>{{title}}</h1>\n<ul>\n  {{#tiles}}\n  {{>tile}}\n  {{/tiles}}\n</ul>\n".utf8))
        try folder.write("tile.mustache", Array("<li>{{name}}</li>\n".utf8))
        // Not templates, or not in this folder: never parsed (each would be a syntax error).
        try folder.write("notes.txt", Array("{{".utf8))
        try folder.write(".hidden.mustache", Array("{{".utf8))
        try folder.write("page.mustache.orig", Array("{{".utf8))
        try folder.write("sub/inner.mustache", Array("{{".utf8))

        let library = try TemplateLibrary(folder: folder.path)
        #expect(library.names == ["page", "tile"])
        #expect(library.folder == folder.path)
        #expect(library.templates["page"]?.name == folder.path + "/page.mustache")
        #expect(try library.render(name: "page", value: ["title": "Summer", "tiles": [["name": "a"], ["name": "b <c>"]]])
            == "<h1>Summer</h1>\n<ul>\n  <li>a</li>\n  <li>b &lt;c&gt;</li>\n</ul>\n")
    }

    @Test func syntaxErrorsNameTheFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("good.mustache", Array("fine".utf8))
        try folder.write("bad.mustache", Array("ok\n  {{#tiles}}\n".utf8))
        #expect(throws: TemplateError(file: folder.path + "/bad.mustache", line: 2, column: 3,
                                      message: "unclosed section 'tiles'")) {
            try TemplateLibrary(folder: folder.path)
        }
    }

    @Test func fileAndFolderErrors() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("binary.mustache", [0x3C, 0xFF, 0xFE, 0x3E])
        #expect(throws: TemplateError(file: file, message: "not UTF-8 text")) { try TemplateLibrary(folder: folder.path) }
        #expect(throws: TemplateError(file: file, message: "not a folder")) { try TemplateLibrary(folder: file) }
        let missing = folder.path + "/nope"
        #expect(throws: TemplateError(file: missing, message: "No such file or directory")) {
            try TemplateLibrary(folder: missing)
        }
    }

    @Test func missingTemplate() throws {
        let folder = try TemporaryFolder()
        try folder.write("page.mustache", Array("{{>tile}}".utf8))
        try folder.write("tile.mustache", Array("x".utf8))
        let library = try TemplateLibrary(folder: folder.path)
        do {
            _ = try library.render(name: "gallery", value: [:])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == folder.path + "/gallery.mustache: no such template (templates: page, tile)")
        }
        #expect(throws: TemplateError(file: "page.mustache", message: "no such template (there are no templates)")) {
            try TemplateLibrary(templates: [:]).render(name: "page", value: [:])
        }
    }

    @Test func emptyFolderAndInMemoryLibrary() throws {
        let empty = try TemporaryFolder()
        #expect(try TemplateLibrary(folder: empty.path).names.isEmpty)
        let library = TemplateLibrary(templates: [
            "page": try Template(source: "[{{>tile}}]", name: "page.mustache"),
            "tile": try Template(source: "{{.}}", name: "tile.mustache"),
        ])
        #expect(try library.render(name: "page", value: "x") == "[x]")
    }
}
