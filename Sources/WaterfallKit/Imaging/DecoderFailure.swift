import CImageIO
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A decoder process that did not answer a job: it crashed, exited, took too long, or could not be started.
/// All but the last are one photo's problem; a decoder that cannot be started is the build's.
struct DecoderFailure: Error, Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case notStarted
        case crashed(signal: Int32)
        case exited(status: Int32)
        case timedOut
        case broken
    }

    var kind: Kind
    /// The C side's words: "crashed (signal 11)", "took too long and was stopped".
    var detail: String

    init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// nil when the job ran.
    init?(_ outcome: wf_decoder_outcome) {
        let detail = withUnsafeBytes(of: outcome.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        switch outcome.status {
        case WF_DECODER_OK: return nil
        case WF_DECODER_NOT_STARTED: self.init(.notStarted, detail)
        case WF_DECODER_CRASHED: self.init(.crashed(signal: outcome.signal_number), detail)
        case WF_DECODER_EXITED: self.init(.exited(status: outcome.exit_status), detail)
        case WF_DECODER_TIMED_OUT: self.init(.timedOut, detail)
        default: self.init(.broken, detail)
        }
    }

    /// The reason a photo is skipped for: "the HEIC decoder crashed (signal 11: segmentation fault)".
    func reason(format: String?) -> String {
        let who = "the \(format.map { $0 + " " } ?? "")decoder"
        switch kind {
        case .notStarted: return detail
        case .crashed(let signal): return "\(who) crashed (signal \(signal)\(Self.signalName(signal).map { ": " + $0 } ?? ""))"
        case .exited(let status): return "\(who) ended without answering (exit status \(status))"
        case .timedOut: return "\(who) took too long and was stopped"
        case .broken: return "\(who) \(detail)"
        }
    }

    private static func signalName(_ signal: Int32) -> String? {
        switch signal {
        case SIGSEGV: "segmentation fault"
        case SIGBUS: "bus error"
        case SIGABRT: "aborted"
        case SIGFPE: "arithmetic error"
        case SIGILL: "illegal instruction"
        case SIGKILL: "killed"
        default: nil
        }
    }
}

extension DecoderFailure {
    /// As a photo's reason to be skipped while its header was read.
    func readError(format: String?) -> ImageReadError {
        ImageReadError(kind == .notStarted ? .io : .corrupt, reason(format: format))
    }

    /// As a photo's reason to be skipped while its images were made.
    func deriveError(format: String?) -> DeriveError {
        DeriveError(kind == .timedOut ? .limit : kind == .notStarted ? .io : .corrupt, reason(format: format))
    }
}
