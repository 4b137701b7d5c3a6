import Foundation
import Testing
@testable import WaterfallKit

struct JSONValueTests {
    @Test func escapesWhatJSONRequiresAndKeepsUnicode() throws {
        let tricky = "a\"b\\c\nd\re\tf\u{1}g\u{7F}h é 😀 </script>"
        let text = JSONValue.object([("k", .string(tricky)), ("n", .int(-3)), ("d", .double(0.125)),
                                     ("w", .double(2)), ("b", .bool(true)), ("z", .null)]).rendered()
        #expect(text == #"{"k": "a\"b\\c\nd\re\tf\u0001g\u007fh é 😀 </script>", "n": -3, "d": 0.125, "w": 2, "b": true, "z": null}"#)
        let parsed = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(parsed["k"] as? String == tricky)
    }

    @Test func onePerLine() {
        #expect(JSONValue.array([]).renderedOnePerLine() == "[]\n")
        #expect(JSONValue.array([.int(1), .array([.int(2)])]).renderedOnePerLine() == "[\n  1,\n  [2]\n]\n")
    }

    @Test func nonFiniteDoublesBecomeNull() {
        #expect(JSONValue.array([.double(.nan), .double(.infinity)]).rendered() == "[null, null]")
    }
}
