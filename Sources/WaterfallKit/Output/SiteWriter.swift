#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Writes a site into its output folder, and only there, touching only what it can prove it wrote.
///
/// 1. `open` locks the output (a second build stops with "another build is writing OUTPUT") and reads the
///    records of earlier builds (`OutputRecords`).
/// 2. `plan` takes every path the build will write, before anything is written: a name the file system
///    cannot hold, two paths that differ only in case or Unicode spelling, a symbolic link or a file where
///    the site needs a folder, or a file in the way that the records do not prove to be Waterfall's,
///    stops the build there, with nothing written.
/// 3. `write` and `publish` stage each file in `.waterfall/tmp` (a file whose content is already in place
///    is left alone, time stamp and all); nothing in the site changes yet, so a template error on the
///    last page still leaves the site as it was.
/// 4. `commit` renames the staged files into place (a journal record first, so a killed build leaves
///    nothing unproven), removes what the last build wrote and this one does not (only files still
///    proven to be its own), and records the new manifest.
///
/// Every operation is relative to folders opened without following links (`FolderHandle`): a link planted
/// in the output, `.waterfall/tmp` included, is never written through, renamed over or emptied.
///
/// In keyed mode (`key`) every record and the plan memo carry a MAC under the key, records without a valid
/// one prove nothing, and files are proven by a keyed hash and by identity with the change time.
struct SiteWriter {
    let output: String
    private let root: FolderHandle
    let state: FolderHandle
    private let tmp: FolderHandle
    private let lock: FileLock
    private let key: RecordKey?
    private(set) var records = OutputRecords()
    /// Paths Waterfall 0.1's line-based manifest lists: they prove nothing, but say why a file is in the way.
    private var legacyPaths: Set<String> = []
    /// Planned paths in the order `plan` was given them, with the record of the file already there when it
    /// is Waterfall's, and what became of each; found by position (a caller that knows where a path was in
    /// the plan hands it back: no hashing) or by path (as bytes) through an index made on the first need.
    private var plannedPaths: [String] = []
    private var planned: [Planned] = []
    private var positions: [ExactPath: Int32]?
    private var staged: [(temporary: String, record: OwnedFile, position: Int)] = []
    /// Files the last build wrote where this one needs a folder: removed first at commit.
    private var displaced: [String] = []
    private var temporaryCount = 0

    static let stateFolder = SitePath.stateFolder
    static let maximumNameBytes = SitePath.maximumNameBytes

    /// Opens (or makes) the output folder and locks it, and reads its records unless `readingRecords` is
    /// off (then `readRecords` does, perhaps on another core while the cache is read).
    init(output: String, readingRecords: Bool = true, key: RecordKey? = nil) throws(FileSystemError) {
        self.output = output
        self.key = key
        records = OutputRecords(key: key)
        root = try FolderHandle.open(output, create: true)
        state = try root.folder(Self.stateFolder, create: true)
        guard let lock = try state.lock("lock") else {
            throw FileSystemError("", "another build is writing \(PathText.display(output)); try again when it has finished")
        }
        self.lock = lock
        tmp = try state.folder("tmp", create: true)
        for entry in (try? tmp.list()) ?? [] {
            if let name = entry.text, entry.kind != .folder, CacheFolder.isTemporaryName(name) { tmp.remove(name) }
        }
        if readingRecords { readRecords() }
    }

    /// Reads the records of earlier builds (the output is locked: no other build writes them meanwhile).
    /// A record over its limit is ignored as damaged, with a line in `warnings`.
    mutating func readRecords() {
        var warnings: [String] = []
        records = OutputRecords.read(from: state, key: key, warnings: &warnings)
        legacyPaths = Self.legacyPaths(in: state, warnings: &warnings)
        if let info = state.status(PlanMemo.fileName), EntryKind(info.st_mode) == .file, Int(info.st_size) > PlanMemo.maximumBytes {
            warnings.append("\(PathText.display(state.display(PlanMemo.fileName))): larger than the \(ByteCount.text(PlanMemo.maximumBytes)) "
                + "a plan memo may hold; ignored as damaged")
        }
        self.warnings = warnings
    }

    /// Record files ignored as damaged (over their limits), one line each, for the build to say.
    private(set) var warnings: [String] = []

    /// Waterfall 0.1's line-based manifest lists paths, one a line: 16 MiB is some 400,000 of them. Only
    /// read to say why a file is in the way; a larger one is ignored as damaged.
    static let maximumLegacyManifestBytes = 16 << 20

    private static func legacyPaths(in state: FolderHandle, warnings: inout [String]) -> Set<String> {
        guard let file = try? state.openFile("manifest") else { return [] }
        guard file.size <= maximumLegacyManifestBytes else {
            warnings.append("\(PathText.display(file.path)): larger than the \(ByteCount.text(maximumLegacyManifestBytes)) "
                + "Waterfall 0.1's manifest may hold; ignored as damaged")
            return []
        }
        guard let legacy = try? file.read(limit: maximumLegacyManifestBytes) else { return [] }
        return Set(legacy.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) })
    }

    // MARK: - The last build's plan

    /// The memo the last finished build left beside its manifest (`PlanMemo`), when that manifest is still
    /// the one on disk and its records came from it alone.
    func lastPlan() -> PlanMemo? {
        // Anything at the journal's name (a stopped build's journal, or a thing planted there), or a keyed
        // manifest whose seal is broken (to be written anew), is for the full build to deal with.
        guard records.isManifestOnly, records.sealHeld, legacyPaths.isEmpty, state.kind(OutputRecords.journalName) == nil else { return nil }
        return PlanMemo.read(from: state, mac: key?.memo)
    }

    /// Whether every file of the last build is still as its record says: with an equal `lastPlan`, the
    /// site is the one this build would write.
    func lastBuildIsIntact(jobs: Int = Parallelism.available) -> Bool {
        records.count > 0 && records.allUnchanged(under: root, jobs: jobs)
    }

    /// After a build is committed: the memo of its plan, for the next build.
    mutating func recordPlan(_ memo: PlanMemo) {
        if PlanMemo.read(from: state, mac: key?.memo) == memo { return }
        memo.write(to: state, temporary: nextTemporary(), through: tmp, mac: key?.memo)
    }

    // MARK: - Plan

    /// Checks every path the build will write; throws at the first problem, having written nothing.
    /// `publishing` names, by path, the files that will be hard-linked there: the file already at such a
    /// path may be that very file (an original edited in place since it was linked), which is no stranger.
    mutating func plan(_ paths: [String], publishing: [String: FileIdentity] = [:],
                       jobs: Int = Parallelism.available) throws(FileSystemError) {
        try Self.checkPaths(paths)
        var problems: [FileSystemError] = []
        let byFolder = Dictionary(grouping: paths.indices, by: { SitePath.folder(of: paths[$0]) })
        // The folders one at a time (a file the last build wrote where a folder goes is noted), then the
        // files in them on every core: a site of 100,000 photos needs 400,000 status calls.
        var folders: [(handle: FolderHandle?, positions: [Int])] = []
        for relative in byFolder.keys.sorted() {
            do {
                folders.append((try existingFolder(relative), byFolder[relative]!.sorted { paths[$0] < paths[$1] }))
            } catch {
                problems.append(error)
            }
        }
        let checker = Checker(output: output, records: records, legacyPaths: legacyPaths, publishing: publishing)
        let opened = folders
        // Names one file system would take for one are looked for while the files are checked (both only
        // read); a clash is still the problem reported.
        let (names, checked) = Parallel.both({ Result { () throws(FileSystemError) in try FoldedPaths(paths: paths).check(jobs: jobs) } }, {
            opened.parallelMap(jobs: jobs) { folder in
                folder.positions.map { position in
                    Result { () throws(FileSystemError) in
                        try folder.handle.map { handle throws(FileSystemError) in try checker.check(paths[position], in: handle) } ?? .none
                    }
                }
            }
        })
        try names.get()
        plannedPaths = paths
        planned = Array(repeating: Planned(existing: .none), count: paths.count)
        positions = nil
        for (folder, results) in zip(folders, checked) {
            for (position, result) in zip(folder.positions, results) {
                switch result {
                case .success(let owner): planned[position].existing = owner
                case .failure(let error): problems.append(error)
                }
            }
        }
        guard let first = problems.first else { return }
        let more = problems.count > 1 ? " (and \(problems.count - 1) more file\(problems.count == 2 ? "" : "s") in the way)" : ""
        throw FileSystemError(first.path, first.reason + more)
    }

    /// What `plan` needs to check one path, apart from the writer (so every core can use it).
    private struct Checker: Sendable {
        let output: String
        let records: OutputRecords
        let legacyPaths: Set<String>
        let publishing: [String: FileIdentity]

        /// Why the records may not prove a file Waterfall did write: keyed mode ignored lines not signed with its key.
        var unsignedNote: String {
            records.unsigned == 0 ? "" : " (\(records.unsigned) record\(records.unsigned == 1 ? "" : "s") in "
                + "\(PathText.display(FolderPath.join(output, SiteWriter.stateFolder))) \(records.unsigned == 1 ? "is" : "are") "
                + "not signed with this key: made without it or with another, they prove nothing)"
        }

        /// The record of the file already at `path` when it is Waterfall's; nil when there is none. Anything
        /// else there is in the way. A file about to be hard-linked there may be that very file (an original
        /// edited in place since it was linked), which is no stranger.
        func check(_ path: String, in folder: FolderHandle) throws(FileSystemError) -> OutputRecords.Proof {
            let name = FolderPath.lastComponent(of: path)
            guard let info = folder.status(name) else { return .none }
            // Rebuilds keep every file: the proof, the common answer, first, before anything else is made.
            if EntryKind(info.st_mode) == .file, publishing.isEmpty, let latest = records.latestProof(of: ExactPath(path), info: info) {
                return latest
            }
            let shown = FolderPath.join(output, path)
            switch EntryKind(info.st_mode) {
            case .folder: throw FileSystemError(shown, "is a folder where the site needs a file; move it away or choose another output folder")
            case .link: throw FileSystemError(shown, "is a symbolic link, which Waterfall never writes through; move it away or choose another output folder")
            case .other: throw FileSystemError(shown, "\(OpenFile.notRegular(info.st_mode)) where the site needs a file; move it away")
            case .file:
                if let source = publishing[path], FileIdentity(info) == source, records.record(at: ExactPath(path)) != nil {
                    // itself: linked again, whatever it holds now
                    return .other(OwnedFile(path: path, info: info, hash: nil, keyed: records.isKeyed))
                }
                let owner = records.proof(of: path, info: info, open: { try? folder.openFile(name) })
                guard owner != .none else {
                    if legacyPaths.contains(path) {
                        throw FileSystemError(shown, "was written by Waterfall 0.1, whose records cannot prove it; "
                            + "delete \(PathText.display(output)) and build again")
                    }
                    throw FileSystemError(shown, "exists and was not written by Waterfall\(unsignedNote); move it away or choose another output folder")
                }
                return owner
            }
        }
    }

    /// The folder at `relative` when it exists; nil when it does not yet. A link or someone else's file on
    /// the way is in the way; a file the last build wrote there (a theme's `fonts` file that became a
    /// folder) is noted, to be removed at commit.
    private mutating func existingFolder(_ relative: String) throws(FileSystemError) -> FolderHandle? {
        var current = root
        var walked = ""
        for component in relative.split(separator: "/").map(String.init) {
            walked = FolderPath.join(walked, component)
            guard let info = current.status(component) else { return nil }
            let shown = FolderPath.join(output, walked)
            switch EntryKind(info.st_mode) {
            case .folder: current = try current.folder(component, create: false)
            case .link: throw FileSystemError(shown, "is a symbolic link where the site needs a folder (Waterfall never writes through links); move it away")
            case .file where records.owner(of: walked, info: info, open: { [current] in try? current.openFile(component) }) != nil:
                if !displaced.contains(walked) { displaced.append(walked) }
                return nil
            case .file, .other: throw FileSystemError(shown, "is a file where the site needs a folder; move it away or choose another output folder")
            }
        }
        return current
    }

    /// Paths inside the output folder (checked before anything is looked at there), with names every
    /// file system holds.
    private static func checkPaths(_ paths: [String]) throws(FileSystemError) {
        for path in paths {
            guard isSafeRelativePath(path), !path.hasPrefix(stateFolder + "/"), path != stateFolder else {
                throw FileSystemError(path, "is not a path inside the output folder")
            }
            if longestComponent(path) > maximumNameBytes {
                throw FileSystemError(path, "has a name longer than \(maximumNameBytes) bytes")
            }
        }
    }

    /// The byte length of the path's longest `/`-separated component, counted without splitting it.
    private static func longestComponent(_ path: String) -> Int {
        var longest = 0, current = 0
        for byte in path.utf8 {
            current = byte == UInt8(ascii: "/") ? 0 : current + 1
            longest = max(longest, current)
        }
        return longest
    }

    // MARK: - Stage

    /// Keeps the file at `path` (announced to `plan`) as it is when it is Waterfall's, unchanged since it was
    /// written, and was made from `inputs`: it is the page those inputs make, with no need to render it.
    /// `position`, when known, is where `path` was in the plan's list (checked, not trusted).
    mutating func keep(_ path: String, at position: Int? = nil, madeFrom inputs: ContentDigest) throws(FileSystemError) -> Bool {
        try kept(path, at: position, madeFrom: inputs) != nil
    }

    /// `keep`, with the record of the file kept (its size for the page that links it); nil when it is not.
    mutating func kept(_ path: String, at position: Int? = nil, madeFrom inputs: ContentDigest) throws(FileSystemError) -> OwnedFile? {
        let (position, existing) = try self.existing(path, at: position)
        guard let existing, existing.hash != nil, existing.inputs == inputs else { return nil }
        planned[position].state = .kept
        return existing
    }

    /// Stages `bytes` as the file at `path` (relative to the output folder, announced to `plan`), recording
    /// the digest of the `inputs` it was made from, when known.
    mutating func write(_ bytes: [UInt8], to path: String, at position: Int? = nil, inputs: ContentDigest? = nil) throws(FileSystemError) {
        let hash = records.hasher.digest(bytes)
        let (position, existing) = try self.existing(path, at: position)
        if let existing, existing.hash == hash {
            planned[position].state = .kept
            if existing.inputs != inputs {
                var record = existing
                record.inputs = inputs
                planned[position].existing = .other(record)
            }
            return
        }
        let temporary = nextTemporary()
        try tmp.writeNew(temporary, bytes)
        try stage(temporary, as: path, at: position, hash: hash, inputs: inputs)
    }

    mutating func write(_ text: String, to path: String, at position: Int? = nil, inputs: ContentDigest? = nil) throws(FileSystemError) {
        try write(Array(text.utf8), to: path, at: position, inputs: inputs)
    }

    /// Stages `file` (whose content hash is `hash`) as `path`: a hard link to it where possible, unless
    /// `copy`, else a copy. The site never holds a symbolic link.
    mutating func publish(_ file: OpenFile, hash text: String, as path: String, copy: Bool = false) throws(FileSystemError) {
        try publish(opening: { () throws(FileSystemError) in file }, hash: ContentDigest(hex: text), as: path, copy: copy)
    }

    /// `publish`, opening the file only when it is needed: a link whose content is already in place (the
    /// common case of a rebuild) costs no open. A file already there that is `avoiding` (an input photo itself,
    /// linked there by an earlier build) is replaced, whatever it holds.
    mutating func publish(opening open: () throws(FileSystemError) -> OpenFile, hash: ContentDigest?, as path: String,
                          at position: Int? = nil, copy: Bool = false, avoiding: FileIdentity? = nil) throws(FileSystemError) {
        let (position, existing) = try self.existing(path, at: position)
        if !copy, let hash, let existing, existing.hash == hash, avoiding == nil || existing.identity != avoiding {
            planned[position].state = .kept
            return
        }
        let file = try open()
        if copy, let hash, let existing, existing.hash == hash, existing.identity != file.identity {
            planned[position].state = .kept
            return
        }
        let temporary = nextTemporary()
        if copy { try tmp.copy(file, as: temporary) } else { try tmp.linkOrCopy(file, as: temporary) }
        try stage(temporary, as: path, at: position, hash: hash)
    }

    /// Where `path` is in the plan (`hint` when it is there), and the record of the file already there.
    private mutating func existing(_ path: String, at hint: Int?) throws(FileSystemError) -> (position: Int, record: OwnedFile?) {
        guard let position = position(of: path, hint: hint) else {
            throw FileSystemError(FolderPath.join(output, path), "was not planned (a bug in Waterfall: nothing was changed)")
        }
        return (position, records.resolve(planned[position].existing))
    }

    /// Where `path` is in the plan: `hint` when the path there is this one byte for byte, else looked up.
    private mutating func position(of path: String, hint: Int?) -> Int? {
        if let hint, plannedPaths.indices.contains(hint), ExactPath(plannedPaths[hint]) == ExactPath(path) { return hint }
        return positionIndex()[ExactPath(path)].map(Int.init)
    }

    /// The plan's positions by path, made once, when first needed.
    private mutating func positionIndex() -> [ExactPath: Int32] {
        if let positions { return positions }
        var index: [ExactPath: Int32] = [:]
        index.reserveCapacity(plannedPaths.count)
        for (position, path) in plannedPaths.enumerated() { index[ExactPath(path)] = Int32(position) }
        positions = index
        return index
    }

    /// A path in the staging folder for C code to create a file at (exclusively); `adopt` stages it.
    mutating func scratch() -> (name: String, path: String) {
        let name = nextTemporary()
        return (name, tmp.childPath(name))
    }

    /// A `scratch` file's bytes, written from any thread (a new file in the staging folder).
    func fill(scratch name: String, with bytes: [UInt8]) throws(FileSystemError) { try tmp.writeNew(name, bytes) }

    /// A new scratch file in the staging folder, created here (O_EXCL, O_NOFOLLOW) and open for writing: its
    /// name (for `adopt` or `discard`), its path for messages, and the descriptor, which the caller closes.
    mutating func createScratch() throws(FileSystemError) -> (name: String, path: String, descriptor: Int32) {
        let name = nextTemporary()
        return (name, tmp.display(name), try tmp.createNew(name))
    }

    /// Stages a file made at a `scratch` path as `path` (announced to `plan`; `position`, when known, is where).
    /// `hash` is its content hash when the caller hashed the bytes as it wrote them (else it is read here);
    /// `inputs`, what it was made from, as for `write`.
    mutating func adopt(scratch name: String, as path: String, at position: Int? = nil, hash known: ContentDigest? = nil,
                        inputs: ContentDigest? = nil) throws(FileSystemError) {
        let hash: ContentDigest
        if let known { hash = known } else { hash = try records.hasher.digest(tmp.openFile(name)) }
        let (position, existing) = try self.existing(path, at: position)
        if let existing, existing.hash == hash {
            tmp.remove(name)
            planned[position].state = .kept
            if existing.inputs != inputs {
                var record = existing
                record.inputs = inputs
                planned[position].existing = .other(record)
            }
            return
        }
        try stage(name, as: path, at: position, hash: hash, inputs: inputs)
    }

    /// Removes a scratch file that will not be staged.
    func discard(scratch name: String) { tmp.remove(name) }

    private mutating func stage(_ temporary: String, as path: String, at position: Int, hash: ContentDigest?,
                                inputs: ContentDigest? = nil) throws(FileSystemError) {
        guard let info = tmp.status(temporary) else { throw FileSystemError.system(tmp.display(temporary), "cannot write") }
        var record = OwnedFile(path: path, info: info, hash: hash, keyed: key != nil)
        record.inputs = inputs
        staged.append((temporary, record, position))
        planned[position].state = .staged
    }

    private mutating func nextTemporary() -> String {
        temporaryCount += 1
        return "\(CacheFolder.temporaryPrefix)\(getpid())-\(temporaryCount)"
    }

    /// Removes what was staged, after a failure: the site is left as it was.
    func abandon() {
        for (temporary, _, _) in staged { tmp.remove(temporary) }
    }

    // MARK: - Commit

    /// Puts every staged file in place, removes what the last build wrote and this one did not (unless
    /// `removingStale` is false: then their records are kept, for commands that add to a folder), and
    /// records the manifest. Returns the removed paths, and those left alone because they changed since
    /// Waterfall wrote them.
    mutating func commit(removingStale: Bool = true) throws(FileSystemError) -> (removed: [String], leftAlone: [String]) {
        if let missing = planned.firstIndex(where: { $0.state == .pending }) {
            abandon()
            throw FileSystemError(FolderPath.join(output, plannedPaths[missing]),
                                  "was planned but not written (a bug in Waterfall: nothing was changed)")
        }
        let carried = removingStale ? [] : Self.notPlanned(records.latest, index: positionIndex())
        // The manifest on disk is already this one when nothing was staged and every planned path is kept with
        // exactly its record (files removed, left alone, displaced or carried are records no plan holds).
        let newManifest = !(staged.isEmpty && records.isManifestOnly && records.sealHeld && records.same(as: planned.lazy.map(\.existing)))
        var kept = planned.compactMap { $0.state == .kept ? records.resolve($0.existing) : nil }
        var written = staged.map(\.record)
        // What the commit writes takes its room before any file moves (the journal of every file it puts in
        // place, and the new manifest, staged): a full disk stops the build here, with the site as it was.
        let manifest = "\(CacheFolder.temporaryPrefix)\(getpid())-manifest"
        let journal = try OutputJournal(in: state, mac: key?.records)
        try journal.append(written)
        if newManifest { try OutputRecords.writeManifest(kept + written + carried, as: manifest, in: tmp, key: key) }
        var folders = FolderCursor(root: root)
        do throws(FileSystemError) {
            try removeDisplaced()
            try placeStaged(folders: &folders)
        } catch {
            tmp.remove(manifest)
            throw error
        }
        let outcome: (removed: [String], leftAlone: [String]) = removingStale ? removeStale(folders: &folders) : ([], [])
        if newManifest {
            if key != nil {
                // Every file this build put in place, linked or removed: their inodes' change times moved. The
                // manifest is written again with them, in the room its first writing held.
                let touched = Set(written.map(\.identity) + outcome.removed.compactMap { records.record(at: ExactPath($0))?.identity })
                kept = retakingChangeTimes(kept, touched: touched)
                written = retakingChangeTimes(written, touched: touched)
                tmp.remove(manifest)
                try OutputRecords.writeManifest(kept + written + carried, as: manifest, in: tmp, key: key)
            }
            try tmp.rename(manifest, to: state, as: OutputRecords.manifestName)
        }
        state.remove(OutputRecords.journalName)
        if state.kind("manifest") == .file { state.remove("manifest") }  // Waterfall 0.1's, which proved nothing
        staged = []
        return outcome
    }

    /// The records no planned path holds (carried into the manifest by a commit that removes nothing).
    private static func notPlanned(_ latest: [OwnedFile], index: [ExactPath: Int32]) -> [OwnedFile] {
        latest.filter { index[ExactPath($0.path)] == nil }
    }

    /// Renames every staged file into place, in path order; after a failure, undoes what it can (`undo`).
    private func placeStaged(folders: inout FolderCursor) throws(FileSystemError) {
        var placed: [(path: String, identity: FileIdentity, replaced: Bool)] = []
        do throws(FileSystemError) {
            for (temporary, record, position) in staged.sorted(by: { ExactPath.precedes($0.record.path, $1.record.path) }) {
                let folder = try folders.open(FolderPath.parent(of: "/" + record.path).dropFirst(), create: true)
                let name = FolderPath.lastComponent(of: record.path)
                let before = records.resolve(planned[position].existing)
                if let before {
                    // Replaced only if it is still the file the plan found (nothing changed it meanwhile).
                    guard let now = folder.status(name), EntryKind(now.st_mode) == .file, FileIdentity(now) == before.identity,
                          before.hash == nil || Int(now.st_size) == before.size else {
                        throw FileSystemError(FolderPath.join(output, record.path), "changed during the build; not replaced")
                    }
                    try tmp.rename(temporary, to: folder, as: name)
                } else {
                    try tmp.renameNew(temporary, to: folder, as: name)
                }
                placed.append((record.path, record.identity, before != nil))
            }
        } catch {
            throw undo(placed, after: error)
        }
    }

    /// After a failure while files were put in place: removes the new ones again (each still the file put
    /// there), so the last site stands, but for empty folders, unless files of it were already replaced or
    /// displaced; then the error says so, and that building again mends it.
    private func undo(_ placed: [(path: String, identity: FileIdentity, replaced: Bool)], after error: FileSystemError) -> FileSystemError {
        for file in placed.reversed() where !file.replaced {
            let parent = String(FolderPath.parent(of: "/" + file.path).dropFirst())
            guard let folder = try? root.folder(path: parent, create: false),
                  let info = folder.status(FolderPath.lastComponent(of: file.path)), FileIdentity(info) == file.identity,
                  folder.remove(FolderPath.lastComponent(of: file.path)) else { continue }
            // Folders are left: an empty one may have been there before the build (a user's).
        }
        // Files of the last site standing where this one needs folders were removed before the renames.
        let replaced = placed.count(where: \.replaced) + displaced.count
        guard replaced > 0 else { return error }
        return FileSystemError(error.path, error.reason + "; the build stopped while it put its files in place, and \(replaced) "
                               + "file\(replaced == 1 ? "" : "s") of the last site had already been replaced: build again to finish the site")
    }

    /// In keyed mode a record holds its file's change time, which this build's renames, links and removals
    /// moved (a stored image linked at two paths is one inode): taken again, once every file is in place, for
    /// the records of the inodes it `touched` (a file that is not the one recorded keeps its record).
    private func retakingChangeTimes(_ files: [OwnedFile], touched: Set<FileIdentity>) -> [OwnedFile] {
        var folders = FolderCursor(root: root)
        return files.sorted { ExactPath.precedes($0.path, $1.path) }.map { record in
            guard touched.contains(record.identity),
                  let folder = try? folders.open(FolderPath.parent(of: "/" + record.path).dropFirst(), create: false),
                  let info = folder.status(FolderPath.lastComponent(of: record.path)), FileIdentity(info) == record.identity
            else { return record }
            var record = record
            record.changed = FileChange(info).nanoseconds
            return record
        }
    }

    /// Removes the files of the last build that stand where this one needs folders (proven again first).
    private func removeDisplaced() throws(FileSystemError) {
        for path in displaced.sorted(by: { $0.utf8.count < $1.utf8.count }) {
            let parent = String(FolderPath.parent(of: "/" + path).dropFirst())
            guard let folder = try? root.folder(path: parent, create: false) else { continue }
            let name = FolderPath.lastComponent(of: path)
            guard let info = folder.status(name), EntryKind(info.st_mode) == .file,
                  records.owner(of: path, info: info, open: { try? folder.openFile(name) }) != nil, folder.remove(name) else {
                throw FileSystemError(FolderPath.join(output, path), "is a file where the site needs a folder; move it away")
            }
        }
    }

    /// Removes recorded files this build did not write, when they are still provably Waterfall's, and
    /// the folders that leaves empty.
    private mutating func removeStale(folders: inout FolderCursor) -> (removed: [String], leftAlone: [String]) {
        var removed: [String] = [], leftAlone: [String] = []
        // A record proves a file only at its own path, so when as many planned paths found their file proven
        // as there are records, every record's path is planned: nothing is stale (the rebuild's case).
        if planned.count(where: { $0.existing != .none }) == records.count { return ([], []) }
        let index = positionIndex()
        let stale = records.paths.filter { index[ExactPath($0)] == nil }
            .sorted { ExactPath.precedes($0, $1) }
        for path in stale {
            let parent = String(FolderPath.parent(of: "/" + path).dropFirst())
            guard let folder = try? folders.open(Substring(parent), create: false) else { continue }
            let name = FolderPath.lastComponent(of: path)
            // Gone, or a folder now (one this build needs there): nothing to remove.
            guard let info = folder.status(name), EntryKind(info.st_mode) != .folder else { continue }
            guard records.owner(of: path, info: info, open: { try? folder.openFile(name) }) != nil else {
                leftAlone.append(path)
                continue
            }
            if folder.remove(name) {
                removed.append(path)
                removeEmptyFolders(above: path)
            }
        }
        return (removed, leftAlone)
    }

    /// Removes the folders above `path` that are now empty, up to (not including) the output folder.
    private func removeEmptyFolders(above path: String) {
        var folder = String(FolderPath.parent(of: "/" + path).dropFirst())
        while !folder.isEmpty {
            let parent = String(FolderPath.parent(of: "/" + folder).dropFirst())
            guard let handle = try? root.folder(path: parent, create: false),
                  handle.removeEmptyFolder(FolderPath.lastComponent(of: folder)) else { return }
            folder = parent
        }
    }

    /// `SitePath.isSafeRelativePath`; kept here for the tests that ask the writer.
    static func isSafeRelativePath(_ path: String) -> Bool { SitePath.isSafeRelativePath(path) }
}

/// A planned file: the record of the file already at its path when that is Waterfall's, and whether this
/// build has kept it (same content) or staged a new one.
private struct Planned {
    enum State { case pending, kept, staged }

    /// What proves the file already at its path is Waterfall's (the latest record named, not copied).
    var existing: OutputRecords.Proof
    var state = State.pending
}

/// The folder files are being put into, kept open while consecutive files share it (paths are taken in
/// sorted order), so a site of 100,000 files opens each folder about once.
private struct FolderCursor {
    let root: FolderHandle
    private var current: (path: Substring, handle: FolderHandle)?

    init(root: FolderHandle) { self.root = root }

    mutating func open(_ path: Substring, create: Bool) throws(FileSystemError) -> FolderHandle {
        if let current, current.path == path { return current.handle }
        let handle = path.isEmpty ? root : try root.folder(path: String(path), create: create)
        current = (path, handle)
        return handle
    }
}
