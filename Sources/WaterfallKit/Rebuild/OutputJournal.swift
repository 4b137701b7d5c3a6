#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The journal of the build in progress: a record is appended before each file is renamed into place, so
/// a build stopped at any moment leaves every file it put in place provably its own.
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

    func append(_ record: OwnedFile) throws(FileSystemError) {
        var line = OutputRecordLine.render(record, mac: mac)
        if let code = line.withUTF8({ BufferedWriter.writeAll(UnsafeRawBufferPointer($0), to: descriptor) }) {
            throw FileSystemError.system(path, "cannot write", code)
        }
    }
}
