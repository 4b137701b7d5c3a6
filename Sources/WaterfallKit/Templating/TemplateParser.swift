/// Turns the lexer's tokens into a tree of nodes, matching each section with its closing tag.
struct TemplateParser {
    let file: String
    let source: String
    var limits = TemplateLimits.standard

    /// A section whose closing tag has not been seen yet.
    private struct OpenSection {
        var name: String
        var inverted: Bool
        var startsLine: Bool
        var offset: Int
        var children: [TemplateNode] = []
    }

    /// Sections nest at most `limits.sectionDepth` deep, checked as they open: no deeper tree is ever built.
    func parse(_ tokens: [TemplateToken]) throws(TemplateError) -> [TemplateNode] {
        var root: [TemplateNode] = []
        var open: [OpenSection] = []  // a stack, not recursion: nesting depth costs no call stack
        func append(_ node: TemplateNode) {
            if open.isEmpty { root.append(node) } else { open[open.count - 1].children.append(node) }
        }
        for token in tokens {
            switch token.kind {
            case .text:
                append(.text(token.content, startsLine: token.startsLine))
            case .variable(let escaped):
                append(.variable(TemplateName(token.content), escaped: escaped, startsLine: token.startsLine))
            case .partial(let indent):
                append(.partial(token.content, indent: indent, startsLine: token.startsLine, offset: token.offset))
            case .section(let inverted):
                guard open.count < limits.sectionDepth else {
                    throw error(at: token.offset, "section '\(TemplateError.excerpt(token.content))' nested more than "
                        + "\(limits.sectionDepth) deep (the limit for sections within sections in one template)")
                }
                open.append(OpenSection(name: token.content, inverted: inverted, startsLine: token.startsLine, offset: token.offset))
            case .close:
                guard let section = open.popLast() else {
                    throw error(at: token.offset, "closing tag '\(TemplateError.excerpt(token.content))' without an open section")
                }
                guard section.name == token.content else {
                    let line = SourceLocation(offset: section.offset, in: source).line
                    throw error(at: token.offset, "mismatched closing tag '\(TemplateError.excerpt(token.content))' "
                        + "(open section is '\(TemplateError.excerpt(section.name))' from line \(line))")
                }
                append(.section(TemplateName(section.name), inverted: section.inverted, startsLine: section.startsLine,
                                offset: section.offset, children: section.children))
            }
        }
        if let unclosed = open.last {
            throw error(at: unclosed.offset, "unclosed section '\(TemplateError.excerpt(unclosed.name))'")
        }
        return root
    }

    private func error(at offset: Int, _ message: String) -> TemplateError {
        TemplateError(file: file, source: source, offset: offset, message: message)
    }
}
