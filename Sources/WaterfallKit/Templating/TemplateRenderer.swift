/// Walks a template's nodes with a context stack, appending everything to one output string.
struct TemplateRenderer<Partials: PartialProvider> {
    /// Partials may include themselves (to render trees), so only data ends the recursion; this limit turns
    /// a partial that includes itself unconditionally into an error instead of a stack overflow.
    static var maxPartialDepth: Int { 100 }

    let partials: Partials
    private(set) var output = ""
    /// Innermost context last. Names resolve from the top down.
    private var stack: [TemplateValue]
    /// The current standalone partial's indentation, written at the start of each of its source lines.
    private var indent = ""
    private var depth = 0

    init(value: TemplateValue, partials: Partials) {
        self.partials = partials
        stack = [value]
    }

    mutating func render(_ template: Template) throws(TemplateError) {
        output.reserveCapacity(template.source.utf8.count)
        try render(template.nodes, in: template)
    }

    private mutating func render(_ nodes: [TemplateNode], in template: Template) throws(TemplateError) {
        for node in nodes {
            switch node {
            case .text(let text, let startsLine):
                if indent.isEmpty { output += text } else { appendIndented(text, startsLine: startsLine) }
            case .variable(let name, let escaped, let startsLine):
                if startsLine { output += indent }
                append(resolve(name), escaped: escaped)
            case .section(let name, let inverted, let startsLine, let children):
                if startsLine { output += indent }
                let value = resolve(name)
                if inverted {
                    if value.isFalsey { try render(children, in: template) }
                    continue
                }
                switch value {
                case .list(let items):
                    for item in items { try render(children, in: template, context: item) }
                case .bool(false), .null:
                    break
                default:
                    // Objects are the usual case; a truthy scalar renders once and is `{{.}}` inside.
                    try render(children, in: template, context: value)
                }
            case .partial(let name, let ownIndent, let startsLine, let offset):
                guard let partial = partials.partial(named: name) else { continue }
                guard depth < Self.maxPartialDepth else {
                    throw TemplateError(file: template.name, source: template.source, offset: offset,
                                        message: "partial '\(name)' nested more than \(Self.maxPartialDepth) deep "
                                            + "(does it include itself with nothing to stop it?)")
                }
                let outerIndent = indent
                if let ownIndent {
                    indent += ownIndent  // a standalone partial's lines carry its tag's indentation too
                } else {
                    if startsLine { output += indent }
                    indent = ""  // an inline partial's lines are not indented
                }
                depth += 1
                try render(partial.nodes, in: partial)
                depth -= 1
                indent = outerIndent
            }
        }
    }

    private mutating func render(_ nodes: [TemplateNode], in template: Template, context: TemplateValue) throws(TemplateError) {
        stack.append(context)
        try render(nodes, in: template)
        stack.removeLast()
    }

    /// The spec's resolution: `.` is the top of the stack; otherwise the first key is looked up from the top
    /// of the stack down, and any further keys only inside what it found (a broken chain is a miss).
    private func resolve(_ name: TemplateName) -> TemplateValue {
        guard let first = name.keys.first else { return stack[stack.count - 1] }
        var found: TemplateValue?
        for index in stack.indices.reversed() {
            if case .object(let members) = stack[index], let value = members[first] {
                found = value
                break
            }
        }
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
    private mutating func appendIndented(_ text: String, startsLine: Bool) {
        if startsLine { output += indent }
        let utf8 = text.utf8
        var lineStart = utf8.startIndex
        while let newline = utf8[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            let next = utf8.index(after: newline)
            output += text[lineStart..<next]
            if next != utf8.endIndex { output += indent }
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
