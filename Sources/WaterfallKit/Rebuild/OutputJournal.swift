#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The journal of the build in progress: the records of the files a commit puts in place, written before the
/// first of them is renamed, so a build stopped at any moment leaves every file it put in place provably its
/// own (a record of a file not yet in place proves nothing: its identity is not at its path).
final class OutputJournal {
    private let descriptor: Int32
    private let path: String
    private let mac: RecordMAC?

    /// With `mac` (keyed mode), each record carries its MAC.
    init(in state: FolderHandle, mac: RecordMAC? = nil) throws(FileSystemError) {
        self.mac = mac
        path = state.display(OutputRecords.journalName)
        // Non-blocking, and only a regular file: a FIFO planted at this name would block the open forever.
        descriptor = OpenFile.retrying {
            openat(state.descriptor, OutputRecords.journalName, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw OpenFile.openError(path, errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, EntryKind(info.st_mode) == .file else {
            close(descriptor)
            throw FileSystemError(path, "\(OpenFile.notRegular(info.st_mode)); move it away")
        }
    }

    deinit { close(descriptor) }

    func append(_ records: [OwnedFile]) throws(FileSystemError) {
        var text = ""
        for record in records {
            text += OutputRecordLine.render(record, mac: mac)
            if text.utf8.count >= 1 << 16 {
                try write(&text)
            }
        }
        try write(&text)
    }

    private func write(_ text: inout String) throws(FileSystemError) {
        defer { text = "" }
        if let code = text.withUTF8({ BufferedWriter.writeAll(UnsafeRawBufferPointer($0), to: descriptor) }) {
            throw FileSystemError.system(path, "cannot write", code)
        }
    }
}
