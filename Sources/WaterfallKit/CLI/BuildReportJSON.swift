/// `waterfall build --report`: what a build did, as one JSON object, for CI logs and dashboards.
/// The fields are documented in the README; `version` names this layout of them.
enum BuildReportJSON {
    static let version = 1

    /// `shown` gives a path as the user named it (`ArgumentPaths.shown`).
    static func success(_ report: BuildReport, options: BuildOptions, shown: (String) -> String = { $0 }) -> String {
        let timings: [(String, JSONValue)] = report.timings.map { ($0.stage, .double(round($0.seconds))) }
            + [("total", .double(round(report.seconds)))]
        return JSONValue.object(head(status: "ok", exitCode: ExitCode.success, options: options, shown: shown) + [
            ("photos", .int(report.photos)),
            ("albums", .int(report.albums)),
            ("pages", .int(report.pages)),
            ("pagesRendered", .int(report.pagesRendered)),
            ("unchanged", .bool(report.unchanged)),
            ("skipped", skipped(report.skipped, shown: shown)),
            ("images", .object([("made", .int(report.imagesMade)), ("kept", .int(report.imagesKept))])),
            ("cache", .object([("headers", .int(report.cachedHeaders)), ("images", .int(report.imagesKept))])),
            ("sidecarsRead", .int(report.sidecarsRead)),
            ("removed", .array(report.removed.map { .string($0) })),
            ("leftInPlace", .array(report.leftAlone.map { .string($0) })),
            ("seconds", .object(timings)),
            ("work", .object(report.work.stages.map { ($0.stage, .double(round($0.seconds))) })),
        ]).rendered() + "\n"
    }

    static func failure(_ error: BuildError, options: BuildOptions, shown: (String) -> String = { $0 }) -> String {
        JSONValue.object(head(status: "failed", exitCode: ExitCode.failure, options: options, shown: shown) + [
            ("error", .string(shown(error.description))),
            ("skipped", skipped(error.skipped, shown: shown)),
        ]).rendered() + "\n"
    }

    private static func head(status: String, exitCode: ExitCode, options: BuildOptions, shown: (String) -> String) -> [(String, JSONValue)] {
        [("report", .int(version)), ("waterfall", .string(WaterfallCLI.version)), ("status", .string(status)),
         ("exitCode", .int(Int(exitCode.rawValue))), ("input", .string(shown(options.input))), ("output", .string(shown(options.output)))]
    }

    private static func skipped(_ files: [(path: String, reason: String)], shown: (String) -> String) -> JSONValue {
        .array(files.map { .object([("path", .string(shown($0.path))), ("reason", .string(shown($0.reason)))]) })
    }

    /// Milliseconds are enough for a report, and keep it readable.
    private static func round(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }
}
