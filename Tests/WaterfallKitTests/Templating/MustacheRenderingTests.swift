import Testing
@testable import WaterfallKit

/// What the spec leaves open or does not test: escaping of hostile data, values, partial recursion and
/// indentation across nested partials.
struct MustacheRenderingTests {
    private func render(_ source: String, _ value: TemplateValue, partials: [String: String] = [:]) throws -> String {
        var library: [String: Template] = [:]
        for (name, source) in partials { library[name] = try Template(source: source, name: "\(name).mustache") }
        return try Template(source: source, name: "page.mustache").render(value, partials: library)
    }

    // MARK: Escaping

    static let hostile: [(value: String, escaped: String)] = [
        (#"<script>alert("pwned" & 'x')</script>"#,
         "&lt;script&gt;alert(&quot;pwned&quot; &amp; &#39;x&#39;)&lt;/script&gt;"),
        (#"" onerror="alert(1)"#, "&quot; onerror=&quot;alert(1)"),
        ("' onmouseover='alert(1)", "&#39; onmouseover=&#39;alert(1)"),
        ("&amp; is already escaped", "&amp;amp; is already escaped"),
        ("café — 東京 👍🏽 <b>", "café — 東京 👍🏽 &lt;b&gt;"),
        ("&&<<>>\"\"''", "&amp;&amp;&lt;&lt;&gt;&gt;&quot;&quot;&#39;&#39;"),
        ("nothing to escape", "nothing to escape"),
        ("", ""),
    ]

    @Test(arguments: hostile)
    func escapesHostileStrings(value: String, escaped: String) throws {
        #expect(try render(#"<img alt="{{x}}" title='{{x}}'>"#, ["x": .string(value)])
            == #"<img alt="\#(escaped)" title='\#(escaped)'>"#)
        #expect(try render("{{{x}}}|{{&x}}", ["x": .string(value)]) == value + "|" + value)
    }

    @Test func dataIsNeverTemplateSyntax() throws {
        #expect(try render("{{a}}", ["a": "{{b}}", "b": "no"]) == "{{b}}")
        #expect(try render("{{>p}}", ["p": "{{b}}"], partials: ["p": "{{p}}"]) == "{{b}}")
    }

    // MARK: Values

    @Test func numbers() throws {
        let value: TemplateValue = [
            "int": -3, "two": 2.0, "half": -0.5, "big": 1e20, "sum": .double(0.1 + 0.2), "max": .int(Int.max),
        ]
        #expect(try render("{{int}} {{two}} {{half}} {{big}} {{sum}} {{max}}", value)
            == "-3 2 -0.5 1e+20 0.30000000000000004 9223372036854775807")
    }

    @Test func truthiness() throws {
        let value: TemplateValue = [
            "empty": "", "zero": 0, "false": false, "null": nil, "none": [], "list": [[]], "object": [:],
        ]
        let template = "{{#empty}}e{{/empty}}{{#zero}}0{{/zero}}{{#false}}f{{/false}}{{#null}}n{{/null}}"
            + "{{#none}}[]{{/none}}{{#list}}L{{/list}}{{#object}}O{{/object}}{{^missing}}M{{/missing}}"
        #expect(try render(template, value) == "e0LOM")
        #expect(TemplateValue.string("").isFalsey == false)
        #expect(TemplateValue.list([]).isFalsey)
    }

    @Test func containersAndBooleansInterpolate() throws {
        #expect(try render("[{{list}}][{{object}}][{{yes}}][{{no}}]", ["list": [1, 2], "object": ["a": 1], "yes": true, "no": false])
            == "[][][true][false]")
    }

    @Test func literalsAndConversions() {
        let title = "Summer"
        let value: TemplateValue = ["title": "\(title) 2024", "count": 3, "ratio": 1.5, "draft": false,
                                    "tiles": [["w": 1]], "none": nil]
        #expect(value == .object([
            "title": .string("Summer 2024"), "count": .int(3), "ratio": .double(1.5), "draft": .bool(false),
            "tiles": .list([.object(["w": .int(1)])]), "none": .null,
        ]))
        #expect(value["count"] == 3)
        #expect(value["missing"] == nil)
        let names = ["a", "b"]
        #expect(TemplateValue(names.map { TemplateValue($0) }) == ["a", "b"])
        #expect(TemplateValue(["k": TemplateValue(2.5)]) == ["k": 2.5])
        #expect(TemplateValue(7) == 7 && TemplateValue(true) == true && TemplateValue("s") == "s")
    }

    @Test func nameResolutionWalksUpOnlyForTheFirstKey() throws {
        let value: TemplateValue = ["site": ["title": "Site"], "page": ["site": ["name": "inner"], "title": "Page"]]
        #expect(try render("{{#page}}{{title}}/{{site.name}}/[{{site.title}}]{{/page}}", value) == "Page/inner/[]")
    }

    // MARK: Partials

    @Test func missingPartialRendersNothing() throws {
        #expect(try render("[{{>nope}}]", [:]) == "[]")
        #expect(try Template(source: "[{{>nope}}]").render([:]) == "[]")
    }

    /// A tree as deep as the limit renders; one level more is the recursion error, naming the partial.
    @Test func recursionDepth() throws {
        func tree(depth: Int) -> TemplateValue {
            depth == 0 ? [] : [["name": "n", "children": tree(depth: depth - 1)]]
        }
        let node = "{{#.}}{{name}}({{#children}}{{>node}}{{/children}}){{/.}}"
        let deepest = try render("{{#tree}}{{>node}}{{/tree}}", ["tree": tree(depth: 100)], partials: ["node": node])
        #expect(deepest == String(repeating: "n(", count: 100) + String(repeating: ")", count: 100))
        let error = #expect(throws: TemplateError.self) {
            try render("{{#tree}}{{>node}}{{/tree}}", ["tree": tree(depth: 101)], partials: ["node": node])
        }
        #expect(error?.description == "node.mustache:1:29: partial 'node' nested more than 100 deep "
            + "(does it include itself with nothing to stop it?)")
    }

    @Test func unboundedRecursionIsAnErrorAtThePartialTag() throws {
        let partials = ["loop": try Template(source: "x\n {{>loop}}", name: "loop.mustache")]
        do {
            _ = try Template(source: "{{>loop}}", name: "page.mustache").render([:], partials: partials)
            Issue.record("expected the recursion limit")
        } catch {
            #expect(error.description == "loop.mustache:2:2: partial 'loop' nested more than 100 deep "
                + "(does it include itself with nothing to stop it?)")
        }
    }

    /// Ruby Mustache's rule, which the spec comes from: a standalone partial's indentation is added to every
    /// line of its template (so it adds up through nested standalone partials), but not to the lines of an
    /// inline partial or of interpolated data.
    @Test func indentationThroughNestedPartials() throws {
        let partials = [
            "items": "{{#list}}\n<li>\n  {{>item}}\n</li>\n{{/list}}\n",
            "item": "<b>{{.}}</b>\n<i>{{{note}}}</i>\n",
        ]
        #expect(try render("<ul>\n  {{>items}}\n</ul>\n", ["list": ["a", "b"], "note": "1\n2"], partials: partials)
            == "<ul>\n  <li>\n    <b>a</b>\n    <i>1\n2</i>\n  </li>\n  <li>\n    <b>b</b>\n    <i>1\n2</i>\n  </li>\n</ul>\n")
        #expect(try render("  {{>p}}\n", [:], partials: ["p": "a\n[{{>q}}]\n\nb", "q": "1\n2"])
            == "  a\n  [1\n2]\n  \n  b")
    }

    // MARK: Rendering many times, from many tasks

    @Test func thousandTiles() throws {
        let tiles = (0..<1000).map { index -> TemplateValue in
            ["src": "photos/IMG_\(index).jpg", "alt": "Photo \(index) <\"&\">", "x": .double(Double(index) * 10.5),
             "y": .int(index * 7), "width": 320, "height": .double(213.33)]
        }
        let template = try Template(source: """
            <div class="waterfall">
              {{#tiles}}
              <img src="{{src}}" alt="{{alt}}" style="left:{{x}}px;top:{{y}}px;width:{{width}}px;height:{{height}}px">
              {{/tiles}}
            </div>

            """, name: "page.mustache")
        let page = try template.render(["tiles": .list(tiles)])
        #expect(page.split(separator: "\n").count == 1002)
        #expect(page.contains(#"<img src="photos/IMG_999.jpg" alt="Photo 999 &lt;&quot;&amp;&quot;&gt;" style="left:10489.5px;top:6993px;width:320px;height:213.33px">"#))
    }

    @Test func rendersConcurrently() async throws {
        let template = try Template(source: "{{#items}}{{.}},{{/items}}", name: "page.mustache")
        let results = await withTaskGroup(of: String?.self) { group in
            for task in 0..<8 {
                group.addTask { try? template.render(["items": .list((0..<100).map { .int($0 + task) })]) }
            }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(results.count == 8 && results.allSatisfy { $0?.split(separator: ",").count == 100 })
    }
}
