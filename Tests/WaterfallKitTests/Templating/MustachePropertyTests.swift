import Testing
@testable import WaterfallKit

/// Seeded random templates built from every tag kind (and broken ones), with random partials that may
/// include each other and themselves, rendered with random data on a small thread stack: each case ends
/// in output within the size limit or in a one-line `TemplateError`, never in a crash or a hang.
struct MustachePropertyTests {
    static let caseCount = 600
    /// Small budgets, so that the cases whose partials multiply stop quickly.
    static let limits: TemplateLimits = {
        var limits = TemplateLimits()
        limits.renderSteps = 20_000
        limits.pageBytes = 64 << 10
        return limits
    }()

    struct Outcome {
        var rendered = 0
        var failed = 0
        var budgetErrors = 0
        /// Broken properties, checked on the test's own thread.
        var problems: [String] = []
    }

    @Test func randomTemplatesRenderOrFailCleanly() {
        let outcome = SmallStackThread.run { Self.runCases(seed: 0x5EED) }
        #expect(outcome.problems.isEmpty, "\(outcome.problems.prefix(5))")
        // The generator reaches all three ends, so the property says something about each.
        #expect(outcome.rendered > Self.caseCount / 4, "\(outcome.rendered) rendered")
        #expect(outcome.failed > Self.caseCount / 10, "\(outcome.failed) failed")
        #expect(outcome.budgetErrors > 0, "\(outcome.budgetErrors) passed a limit")
    }

    static func runCases(seed: UInt64) -> Outcome {
        var random = SplitMix64(seed: seed)
        var outcome = Outcome()
        for caseNumber in 0..<caseCount {
            var generator = TemplateGenerator(random: random)
            var partials: [String: Template] = [:]
            for name in TemplateGenerator.partialNames {
                partials[name] = try? Template(source: generator.source(), name: name + ".mustache", limits: limits)
            }
            let source = generator.source()
            let data = generator.value(depth: 3)
            random = generator.random
            do {
                let page = try Template(source: source, name: "page.mustache", limits: limits)
                let output = try page.render(data, partials: partials, limits: limits)
                if output.utf8.count > limits.pageBytes { outcome.problems.append("case \(caseNumber): \(output.utf8.count) bytes") }
                outcome.rendered += 1
            } catch {
                if error.description.contains("\n") || !error.file.hasSuffix(".mustache") {
                    outcome.problems.append("case \(caseNumber): \(error.description)")
                }
                outcome.failed += 1
                if error.message.contains("limit") { outcome.budgetErrors += 1 }
            }
        }
        return outcome
    }
}

/// Builds random template sources: mostly well formed, with every kind of tag, delimiter changes,
/// standalone lines, deep nesting, and now and then something broken.
struct TemplateGenerator {
    static let partialNames = ["a", "b", "c", "../a", "page"]
    static let keys = ["x", "list", "object", "flag", "a.b", ".", "missing", "text"]
    static let delimiterPairs = [("{{", "}}"), ("<%", "%>"), ("[", "]"), ("|", "|"), ("{{{", "}}}"), ("<{{", "}}>")]

    var random: SplitMix64

    mutating func source() -> String {
        var output = ""
        var open: [String] = []
        var delimiters = Self.delimiterPairs[0]
        for _ in 0..<random.nextInt(in: 0...30) {
            output += piece(open: &open, delimiters: &delimiters)
        }
        for name in open.reversed() where random.nextInt(in: 0...9) > 0 {
            output += delimiters.0 + "/" + name + delimiters.1
        }
        return output
    }

    private mutating func piece(open: inout [String], delimiters: inout (String, String)) -> String {
        let (left, right) = delimiters
        let key = pick(Self.keys)
        switch random.nextInt(in: 0...16) {
        case 0, 1: return text()
        case 2: return left + key + right
        case 3: return left + "&" + key + right
        case 4: return left == "{{" ? "{{{" + key + "}}}" : left + " " + key + " " + right
        case 5, 6:
            open.append(key)
            return (random.nextInt(in: 0...1) == 0 ? "\n" : "") + left + pick(["#", "^"]) + key + right
        case 7:
            guard let name = open.popLast() else { return left + "/" + key + right }
            return left + "/" + name + right + pick(["", "\n"])
        case 8: return left + "! " + text() + " " + right
        case 9: return "\n" + pick(["", " ", "\t  "]) + left + ">" + pick(Self.partialNames) + right + "\n"
        case 10: return left + "> " + pick(Self.partialNames) + " " + right
        case 11:
            let next = pick(Self.delimiterPairs)
            delimiters = next
            return left + "=" + next.0 + " " + next.1 + "=" + right
        case 12:
            // Deep nesting, sometimes past the limit.
            let depth = random.nextInt(in: 1...110)
            return String(repeating: left + "#x" + right, count: depth) + text() + String(repeating: left + "/x" + right, count: depth)
        case 13:
            return pick(["{{", "}}", "{{#}}", "{{=x=}}", "{{a b}}", "{{=<% %>", "{{/nope}}", "{{{x}}", "\u{0}", "é👍🏽"])
        case 14:
            open.append("list")
            return left + "#list" + right
        default:
            return text()
        }
    }

    private mutating func text() -> String {
        String((0..<random.nextInt(in: 0...12)).map { _ in pick(Array("ab <&>\"'\n\r\t{}=#/!^>.|%[]")) })
    }

    mutating func value(depth: Int) -> TemplateValue {
        switch random.nextInt(in: 0...(depth > 0 ? 8 : 5)) {
        case 0: return .null
        case 1: return .bool(random.nextInt(in: 0...1) == 1)
        case 2: return .int(random.nextInt(in: -5...5))
        case 3: return .double(random.nextDouble(in: -10..<10))
        case 4: return .string(text())
        case 5: return .string(pick(["{{x}}", "<b>&</b>", ""]))
        case 6: return .list((0..<random.nextInt(in: 0...4)).map { _ in value(depth: depth - 1) })
        default:
            var members: [String: TemplateValue] = [:]
            for key in ["x", "list", "object", "flag", "a", "b", "text"] where random.nextInt(in: 0...2) > 0 {
                members[key] = value(depth: depth - 1)
            }
            return .object(members)
        }
    }

    private mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[random.nextInt(in: 0...(elements.count - 1))]
    }
}
