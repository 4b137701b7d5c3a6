/// Walks a template's nodes with a context stack, appending everything to one output string.
///
/// It keeps the sections and partials it is inside on a stack of its own rather than recursing, so no
/// nesting can overflow the thread's stack (pages may be rendered on small secondary-thread stacks); the
/// nesting is still bounded by `limits.renderDepth`. It counts its work and its output as it goes, so a
/// theme whose partials include each other many times stops at `limits.renderSteps` or `limits.pageBytes`
/// instead of exhausting the build.
struct TemplateRenderer<Partials: PartialProvider> {
    let partials: Partials
    let limits: TemplateLimits
    private(set) var output = ""
    /// Innermost context last. Names resolve from the top down.
    private var stack: [TemplateValue]
    /// The indentation of the standalone partials being rendered, outermost first, written at the start of
    /// each of their source lines. Kept in pieces so that nesting never copies it.
    private var indent: [String] = []
    /// The nodes being rendered now (the page's, a section's or a partial's), and the ones they are in,
    /// innermost last: the renderer's own stack, on the heap.
    private var current: RenderFrame
    private var outer: [RenderFrame] = []
    private var partialDepth = 0
    private var steps = 0
    /// The template rendered as the page, which the size and work limits name.
    private let page: String

    init(template: Template, value: TemplateValue, partials: Partials, limits: TemplateLimits = .standard) {
        self.partials = partials
        self.limits = limits
        stack = [value]
        page = template.name
        current = RenderFrame(nodes: template.nodes, template: template, exit: .page)
    }

    mutating func render() throws(TemplateError) {
        output.reserveCapacity(min(current.template.source.utf8.count, limits.pageBytes))
        while true {
            try step()
            let next = current.next
            if next < current.nodes.count {
                current.next = next + 1
                try render(current.nodes[next])
            } else if !leave() {
                return
            }
        }
    }

    private mutating func render(_ node: TemplateNode) throws(TemplateError) {
        switch node {
        case .text(let text, let startsLine):
            if indent.isEmpty { output += text } else { try appendIndented(text, startsLine: startsLine) }
        case .variable(let name, let escaped, let startsLine):
            if startsLine { try writeIndent() }
            append(resolve(name), escaped: escaped)
        case .section(let name, let inverted, let startsLine, let offset, let children):
            if startsLine { try writeIndent() }
            try openSection(resolve(name), inverted: inverted, children: children, at: offset)
        case .partial(let name, let ownIndent, let startsLine, let offset):
            try openPartial(name, indent: ownIndent, startsLine: startsLine, at: offset)
        }
    }

    private mutating func openSection(_ value: TemplateValue, inverted: Bool, children: [TemplateNode],
                                      at offset: Int) throws(TemplateError) {
        if inverted {
            if value.isFalsey { try open(children, of: current.template, context: nil, exit: .inverted, tag: offset) }
            return
        }
        switch value {
        case .list(let items):
            guard let first = items.first else { return }
            try open(children, of: current.template, context: first, exit: .section(items: items), tag: offset)
        case .bool(false), .null:
            return
        default:
            // Objects are the usual case; a truthy scalar renders once and is `{{.}}` inside.
            try open(children, of: current.template, context: value, exit: .section(items: []), tag: offset)
        }
    }

    private mutating func openPartial(_ name: String, indent ownIndent: String?, startsLine: Bool,
                                      at offset: Int) throws(TemplateError) {
        guard let partial = partials.partial(named: name) else { return }
        guard partialDepth < limits.partialDepth else {
            throw error(at: offset, "partial '\(TemplateError.excerpt(name))' nested more than "
                + "\(TemplateLimits.count(limits.partialDepth)) deep (does it include itself with nothing to stop it?)")
        }
        let outerIndent = indent
        if let ownIndent {
            // A standalone partial's lines carry its tag's indentation too.
            if !ownIndent.isEmpty { indent.append(ownIndent) }
        } else {
            if startsLine { try writeIndent() }
            indent = []  // an inline partial's lines are not indented
        }
        try open(partial.nodes, of: partial, context: nil, exit: .partial(outerIndent: outerIndent), tag: offset)
        partialDepth += 1
    }

    /// Starts rendering a section's or a partial's nodes, one level deeper than the tag at `tag` in the
    /// nodes being rendered now.
    private mutating func open(_ nodes: [TemplateNode], of template: Template, context: TemplateValue?, exit: RenderFrame.Exit,
                               tag offset: Int) throws(TemplateError) {
        guard outer.count < limits.renderDepth else {
            throw error(at: offset, "sections and partials nested more than \(TemplateLimits.count(limits.renderDepth)) "
                + "deep, counted across partials (does a partial include itself?)")
        }
        if let context { stack.append(context) }
        outer.append(current)
        current = RenderFrame(nodes: nodes, template: template, exit: exit)
    }

    /// The current nodes are done: renders them again for a section's next item, or returns to the nodes
    /// around them. False when the page is done.
    private mutating func leave() -> Bool {
        switch current.exit {
        case .page:
            return false
        case .inverted:
            break
        case .section(let items):
            current.item += 1
            if current.item < items.count {
                stack[stack.count - 1] = items[current.item]
                current.next = 0
                return true
            }
            stack.removeLast()
        case .partial(let outerIndent):
            indent = outerIndent
            partialDepth -= 1
        }
        current = outer.removeLast()
        return true
    }

    /// An error at a tag of the nodes being rendered now.
    private func error(at offset: Int, _ message: String) -> TemplateError {
        TemplateError(file: current.template.name, source: current.template.source, offset: offset, message: message)
    }

    /// Counts one step of work (a node, or the end of a section item) and checks both budgets: rendering
    /// stops within one node of passing either. Runs for every node, so it is kept to two comparisons.
    @inline(__always)
    private mutating func step() throws(TemplateError) {
        steps += 1
        if steps > limits.renderSteps || output.utf8.count > limits.pageBytes { throw overBudget() }
    }

    @inline(__always)
    private mutating func checkSize() throws(TemplateError) {
        if output.utf8.count > limits.pageBytes { throw overBudget() }
    }

    /// The error for the budget `step` or `checkSize` found passed.
    @inline(never)
    private func overBudget() -> TemplateError {
        if steps > limits.renderSteps {
            return TemplateError(file: page, message: "rendering the page took more than the limit of "
                + "\(TemplateLimits.count(limits.renderSteps)) steps (do partials include each other, or sections "
                + "repeat over lists in lists?)")
        }
        return TemplateError(file: page, message: "the rendered page passed the \(TemplateLimits.size(limits.pageBytes)) "
            + "limit (do partials include each other?)")
    }

    /// The standalone partials' indentation, checked piece by piece: nested, it could be large.
    private mutating func writeIndent() throws(TemplateError) {
        for piece in indent {
            output += piece
            try checkSize()
        }
    }

    /// The spec's resolution: `.` is the top of the stack; otherwise the first key is looked up from the top
    /// of the stack down, and any further keys only inside what it found (a broken chain is a miss).
    /// Each context searched is a step: sections nested deep make every lookup cost more.
    private mutating func resolve(_ name: TemplateName) -> TemplateValue {
        guard let first = name.keys.first else { return stack[stack.count - 1] }
        var found: TemplateValue?
        var index = stack.count
        while index > 0 {
            index -= 1
            if case .object(let members) = stack[index], let value = members[first] {
                found = value
                break
            }
        }
        steps += stack.count - index
        guard var value = found else { return .null }
        for key in name.keys.dropFirst() {
            guard case .object(let members) = value, let next = members[key] else { return .null }
            value = next
        }
        return value
    }

    private mutating func append(_ value: TemplateValue, escaped: Bool) {
        switch value {
        case .string(let string): if escaped { appendEscaped(string) } else { output += string }
        case .int(let number): output += String(number)
        case .double(let number): output += Self.format(number)
        case .bool(let flag): output += flag ? "true" : "false"
        // Containers have no text of their own; a section is how a template looks inside them.
        case .null, .list, .object: break
        }
    }

    /// Integral values without a fraction (`2.0` is `2`); others in Swift's shortest round-trip form (`1.21`).
    static func format(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        return String(number)
    }

    /// HTML escaping for text and attribute values (double- or single-quoted). Runs without special
    /// characters are copied whole.
    private mutating func appendEscaped(_ string: String) {
        let utf8 = string.utf8
        // Most values (titles, paths, numbers as text) need nothing: one scan of contiguous bytes, one append.
        if utf8.withContiguousStorageIfAvailable({ !$0.contains(where: isHTMLSpecial) }) == true {
            output += string
            return
        }
        var runStart = utf8.startIndex
        var index = runStart
        while index != utf8.endIndex {
            let entity: String
            switch utf8[index] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            case UInt8(ascii: "'"): entity = "&#39;"
            default:
                utf8.formIndex(after: &index)
                continue
            }
            output += string[runStart..<index]
            output += entity
            utf8.formIndex(after: &index)
            runStart = index
        }
        output += string[runStart..<index]
    }

    /// Text inside a standalone partial: the indentation goes before the text when it starts a source line,
    /// and after each newline that more text follows (a trailing newline leaves the next line to its node).
    private mutating func appendIndented(_ text: String, startsLine: Bool) throws(TemplateError) {
        if startsLine { try writeIndent() }
        let utf8 = text.utf8
        var lineStart = utf8.startIndex
        while let newline = utf8[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            let next = utf8.index(after: newline)
            output += text[lineStart..<next]
            if next != utf8.endIndex { try writeIndent() }
            lineStart = next
        }
        output += text[lineStart...]
    }
}

/// The bytes `appendEscaped` replaces. Outside the generic renderer, so the closure that uses it captures nothing.
private func isHTMLSpecial(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
        || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
}
