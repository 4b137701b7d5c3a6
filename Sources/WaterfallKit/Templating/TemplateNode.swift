/// A parsed template: a tree of these, walked by the renderer. `startsLine` marks nodes that begin a
/// source line; inside a standalone partial, the partial's indentation is written before them. `offset`
/// locates a section or partial tag for the render-depth errors.
///
/// The tree is recursive, and so is freeing it: the parser keeps it at most `TemplateLimits.sectionDepth` deep.
enum TemplateNode: Sendable {
    case text(String, startsLine: Bool)
    case variable(TemplateName, escaped: Bool, startsLine: Bool)
    case section(TemplateName, inverted: Bool, startsLine: Bool, offset: Int, children: [TemplateNode])
    /// `indent` is nil for an inline partial tag.
    case partial(String, indent: String?, startsLine: Bool, offset: Int)
}
