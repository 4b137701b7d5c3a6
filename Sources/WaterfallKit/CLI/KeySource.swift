#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Where keyed mode's key comes from: `--key-file FILE`, else the `WATERFALL_KEY` environment variable (as a
/// CI secret is given); neither means no key. A key file must lie outside the folders the key protects
/// (whoever can write those could read or replace it); it is read once, at most `maximumBytes`.
struct KeySource {
    var file: String?
    /// `WATERFALL_KEY`'s value, when it is set.
    var environment: [UInt8]?

    static let maximumBytes = 4096

    /// The key file named on the command line, and the environment's variable.
    init(file: String?, environment: [UInt8]? = KeySource.environmentValue()) {
        self.file = file
        self.environment = environment
    }

    static func environmentValue() -> [UInt8]? {
        getenv(RecordKey.environmentVariable).map { Array(String(cString: $0).utf8) }
    }

    /// The key, or nil for none. `folders` are the folders it protects, by label ("output", "cache"): the
    /// file may be neither in nor one of them.
    func key(outside folders: [(label: String, path: String)], command: String) throws(UsageError) -> RecordKey? {
        do {
            if let file { return try RecordKey(text: try read(file, outside: folders), origin: PathText.display(file)) }
            if let environment { return try RecordKey(text: environment, origin: RecordKey.environmentVariable) }
            return nil
        } catch {
            throw UsageError("\(error)", command: command)
        }
    }

    private func read(_ file: String, outside folders: [(label: String, path: String)]) throws(RecordKey.Problem) -> [UInt8] {
        let shown = PathText.display(file)
        guard let real = RealPath.of(file) else {
            throw RecordKey.Problem(description: "\(shown): cannot read the key file: \(Self.openFailure(file))")
        }
        for (label, path) in folders {
            if RealPath.isWithin(real, RealPath.resolved(path)) {
                throw RecordKey.Problem(description: "\(shown): the key file is inside the \(label) folder "
                    + "\(PathText.display(path)); keep it outside the output and the cache (whoever can write them could read or replace it)")
            }
        }
        do {
            return try OpenFile.open(file).read(limit: Self.maximumBytes)
        } catch {
            throw RecordKey.Problem(description: "\(shown): cannot read the key file: \(error.reason)")
        }
    }

    /// Why a file whose real path cannot be found cannot be read, in the words of the rest of the program.
    private static func openFailure(_ file: String) -> String {
        do {
            _ = try OpenFile.open(file)
            return "its real path cannot be found"
        } catch {
            return error.reason
        }
    }
}
