import Foundation
import Testing
@testable import WaterfallKit

/// The Mustache spec's required modules (copied from shared/conformance into Fixtures/mustache-spec), every
/// case of every file.
struct MustacheSpecTests {
    /// What each file holds in the copied version of the spec, so a lost or truncated file fails loudly.
    static let expectedCaseCounts = [
        "comments": 12, "delimiters": 14, "interpolation": 42, "inverted": 22, "partials": 12, "sections": 34,
    ]

    @Test func everyCaseIsRun() throws {
        for (file, expected) in Self.expectedCaseCounts {
            let raw = try MustacheSpec.rawTests(in: file)
            #expect(raw.count == expected, "\(file).json")
            #expect(MustacheSpec.cases(in: file).count == raw.count, "\(file).json: a case was not converted")
        }
        let run = [Self.commentsCases, Self.delimitersCases, Self.interpolationCases, Self.invertedCases, Self.partialsCases, Self.sectionsCases]
            .map(\.count).reduce(0, +)
        #expect(run == Self.expectedCaseCounts.values.reduce(0, +))
    }

    static let commentsCases = MustacheSpec.cases(in: "comments")
    static let delimitersCases = MustacheSpec.cases(in: "delimiters")
    static let interpolationCases = MustacheSpec.cases(in: "interpolation")
    static let invertedCases = MustacheSpec.cases(in: "inverted")
    static let partialsCases = MustacheSpec.cases(in: "partials")
    static let sectionsCases = MustacheSpec.cases(in: "sections")

    @Test(arguments: commentsCases) func comments(_ spec: MustacheSpec) throws { try spec.check() }
    @Test(arguments: delimitersCases) func delimiters(_ spec: MustacheSpec) throws { try spec.check() }
    @Test(arguments: interpolationCases) func interpolation(_ spec: MustacheSpec) throws { try spec.check() }
    @Test(arguments: invertedCases) func inverted(_ spec: MustacheSpec) throws { try spec.check() }
    @Test(arguments: partialsCases) func partials(_ spec: MustacheSpec) throws { try spec.check() }
    @Test(arguments: sectionsCases) func sections(_ spec: MustacheSpec) throws { try spec.check() }
}

/// One spec case, shown in test results by its name.
struct MustacheSpec: Sendable, CustomTestStringConvertible {
    var file: String
    var name: String
    var summary: String
    var data: TemplateValue
    var template: String
    var partials: [String: String]
    var expected: String

    var testDescription: String { name }

    func check() throws {
        let library = try partials.mapValues { source in try Template(source: source) }
        let rendered = try Template(source: template, name: "\(file).json: \(name)").render(data, partials: library)
        #expect(rendered == expected, "\(summary)")
    }

    static func rawTests(in file: String) throws -> [[String: Any]] {
        let url = Fixtures.root.appendingPathComponent("mustache-spec/\(file).json")
        let document = try JSONSerialization.jsonObject(with: try Data(contentsOf: url)) as? [String: Any]
        return document?["tests"] as? [[String: Any]] ?? []
    }

    /// Empty when the file is missing or unreadable; `everyCaseIsRun` turns that into a failure.
    static func cases(in file: String) -> [MustacheSpec] {
        ((try? rawTests(in: file)) ?? []).compactMap { test in
            guard let name = test["name"] as? String, let template = test["template"] as? String,
                  let expected = test["expected"] as? String else { return nil }
            return MustacheSpec(
                file: file, name: name, summary: test["desc"] as? String ?? "",
                data: value(test["data"] ?? NSNull()), template: template,
                partials: test["partials"] as? [String: String] ?? [:], expected: expected)
        }
    }

    /// JSONSerialization's objects as template values. Booleans and numbers are both NSNumbers; the
    /// Objective-C type code tells them apart ("c" for a boolean, "d" or "f" for a double).
    static func value(_ object: Any) -> TemplateValue {
        switch object {
        case let string as String:
            return .string(string)
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c": return .bool(number.boolValue)
            case "d", "f": return .double(number.doubleValue)
            default: return .int(number.intValue)
            }
        case let array as [Any]:
            return .list(array.map(value))
        case let dictionary as [String: Any]:
            return .object(dictionary.mapValues(value))
        default:
            return .null
        }
    }
}
