/// A Mustache template, parsed once and rendered any number of times, from any thread.
///
/// Supports the spec's required modules: interpolation, sections, inverted sections, comments, partials
/// and set-delimiter, with its standalone-line and partial-indentation rules. (Not the optional lambdas,
/// inheritance or dynamic names.) A template may come from anyone: `TemplateLimits` bounds what parsing
/// and rendering it can cost.
public struct Template: Sendable {
    /// The name errors give for this template, usually its file's path.
    public let name: String
    /// Kept for locating render-time errors (the nesting limits).
    let source: String
    let nodes: [TemplateNode]

    public init(source: String, name: String = "template") throws(TemplateError) {
        try self.init(source: source, name: name, limits: .standard)
    }

    init(source: String, name: String, limits: TemplateLimits) throws(TemplateError) {
        guard source.utf8.count <= limits.templateBytes else { throw Self.tooLarge(name, limits) }
        var lexer = TemplateLexer(source: source, file: name, limits: limits)
        let tokens = try lexer.tokens()
        self.name = name
        self.source = source
        nodes = try TemplateParser(file: name, source: source, limits: limits).parse(tokens)
    }

    /// The error for a template file over `limits.templateBytes`.
    static func tooLarge(_ name: String, _ limits: TemplateLimits) -> TemplateError {
        TemplateError(file: name, message: "the template is larger than the \(TemplateLimits.size(limits.templateBytes)) limit")
    }

    public func render(_ value: TemplateValue, partials: some PartialProvider) throws(TemplateError) -> String {
        try render(value, partials: partials, limits: .standard)
    }

    func render(_ value: TemplateValue, partials: some PartialProvider, limits: TemplateLimits) throws(TemplateError) -> String {
        var renderer = TemplateRenderer(template: self, value: value, partials: partials, limits: limits)
        try renderer.render()
        return renderer.output
    }

    /// Renders without partials: each `{{> name}}` renders as nothing.
    public func render(_ value: TemplateValue) throws(TemplateError) -> String {
        try render(value, partials: NoPartials())
    }
}
