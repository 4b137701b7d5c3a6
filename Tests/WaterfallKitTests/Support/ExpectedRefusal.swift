import Testing
@testable import WaterfallKit

/// What a format fixture's expected.json says a reader must refuse it with (Fixtures/formats/*/expected.json).
struct ExpectedRefusal: Decodable, Sendable {
    var kind: String
    var message: String

    /// The header read failed as expected: the same kind, a reason that starts with the expected message,
    /// on one line.
    func check(_ result: Result<ImageHeader, ImageReadError>, file: String,
               sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let failure = try #require(result.failureValue, "\(file) read, but should fail: \(message)", sourceLocation: sourceLocation)
        #expect("\(failure.kind)" == kind, "\(failure.reason)", sourceLocation: sourceLocation)
        #expect(failure.reason.hasPrefix(message), "\(failure.reason)", sourceLocation: sourceLocation)
        #expect(!failure.reason.contains("\n"), sourceLocation: sourceLocation)
    }
}
