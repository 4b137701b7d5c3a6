#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// What a finished build recorded beside its manifest (`.waterfall/plan`): the digest of what its site was
/// made from (`SiteInputs`), how many albums and pages the site has, and the manifest it goes with (its
/// identity, size and time stamp). A build whose inputs have that digest, while the manifest is still that
/// one and every file it lists is unchanged, has nothing to do: the site is already the one it would write.
///
/// Written after the manifest, under a temporary name then renamed; a memo that does not parse, or names
/// another manifest (a build stopped between the two), is no memo. In keyed mode the memo is sealed with
/// a MAC under the key, and the manifest it names includes its change time (which any rewrite moves, and
/// no one can set back): a memo made without the key, or for a manifest since rewritten, is no memo.
struct PlanMemo: Equatable {
    var inputs: ContentDigest
    var albums: Int
    var pages: Int

    static let fileName = "plan"
    private static let magic = Versions.plan
    /// Five short lines: some 120 bytes. A larger file is no memo.
    static let maximumBytes = 4096

    /// The memo in `state` when it goes with the manifest there now (and, with `mac`, when its MAC verifies).
    static func read(from state: FolderHandle, mac: RecordMAC? = nil) -> PlanMemo? {
        guard let manifest = ManifestStamp(state, keyed: mac != nil), let stored = try? state.openFile(fileName).read(limit: maximumBytes),
              let bytes = Self.text(of: stored, mac: mac) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count == 5, lines[0] == magic, lines[4].isEmpty, let inputs = ContentDigest(hex: lines[1]),
              lines[2] == manifest.text else { return nil }
        let counts = lines[3].split(separator: " ").compactMap { Int($0) }
        guard counts.count == 2, counts.allSatisfy({ $0 >= 0 }) else { return nil }
        return PlanMemo(inputs: inputs, albums: counts[0], pages: counts[1])
    }

    /// The memo's text: all of it without a key; with one, what its seal vouches for (nil: no valid seal).
    private static func text(of stored: [UInt8], mac: RecordMAC?) -> [UInt8]? {
        guard let mac else { return stored }
        return mac.opened(stored).map(Array.init)
    }

    /// Records the memo for the manifest in `state` now (no manifest: no memo, and an old one is removed);
    /// sealed with `mac` in keyed mode.
    func write(to state: FolderHandle, temporary: String, through tmp: FolderHandle, mac: RecordMAC? = nil) {
        guard let manifest = ManifestStamp(state, keyed: mac != nil) else {
            state.remove(Self.fileName)
            return
        }
        let text = Array("\(Self.magic)\n\(inputs.hex)\n\(manifest.text)\n\(albums) \(pages)\n".utf8)
        tmp.remove(temporary)
        guard (try? tmp.writeNew(temporary, mac.map { $0.sealed(text) } ?? text)) != nil, (try? tmp.rename(temporary, to: state, as: Self.fileName)) != nil else {
            tmp.remove(temporary)
            state.remove(Self.fileName)
            return
        }
    }

    /// The manifest file as it is: which file, how large, when written (in keyed mode, when last changed).
    private struct ManifestStamp {
        var text: String

        init?(_ state: FolderHandle, keyed: Bool) {
            guard let info = state.status(OutputRecords.manifestName), EntryKind(info.st_mode) == .file else { return nil }
            let identity = FileIdentity(info), status = FileStatus(info)
            text = "\(identity.device) \(identity.inode) \(status.size) \(status.modified)" + (keyed ? " \(FileChange(info).nanoseconds)" : "")
        }
    }
}
