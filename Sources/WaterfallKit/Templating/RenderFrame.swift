/// Nodes the renderer is working through (the page's, a section's or a partial's), and what to do when
/// they are done. The renderer keeps these on a stack of its own instead of recursing.
struct RenderFrame {
    var nodes: [TemplateNode]
    var next = 0
    /// Where the nodes come from, for errors and for the frames they open.
    var template: Template
    var exit: Exit
    /// The section item being rendered.
    var item = 0

    init(nodes: [TemplateNode], template: Template, exit: Exit) {
        self.nodes = nodes
        self.template = template
        self.exit = exit
    }

    enum Exit {
        case page
        /// A section rendered with a context on the stack: its nodes render again for each further item.
        case section(items: [TemplateValue])
        /// An inverted section, which pushes no context.
        case inverted
        /// A partial: the indentation to restore.
        case partial(outerIndent: [String])
    }
}
