/// A Mustache template, parsed once and rendered any number of times, from any thread.
///
/// Supports the spec's required modules: interpolation, sections, inverted sections, comments, partials
/// and set-delimiter, with its standalone-line and partial-indentation rules. (Not the optional lambdas,
/// inheritance or dynamic names.)
public struct Template: Sendable {
    /// The name errors give for this template, usually its file's path.
    public let name: String
    /// Kept for locating render-time errors (the partial recursion limit).
    let source: String
    let nodes: [TemplateNode]

    public init(source: String, name: String = "template") throws(TemplateError) {
        var lexer = TemplateLexer(source: source, file: name)
        let tokens = try lexer.tokens()
        self.name = name
        self.source = source
        nodes = try TemplateParser(file: name, source: source).parse(tokens)
    }

    public func render(_ value: TemplateValue, partials: some PartialProvider) throws(TemplateError) -> String {
        var renderer = TemplateRenderer(value: value, partials: partials)
        try renderer.render(self)
        return renderer.output
    }

    /// Renders without partials: each `{{> name}}` renders as nothing.
    public func render(_ value: TemplateValue) throws(TemplateError) -> String {
        try render(value, partials: NoPartials())
    }
}
