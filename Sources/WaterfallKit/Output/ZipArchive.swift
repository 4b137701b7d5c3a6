import CImageIO

/// A ZIP archive being written by libarchive's zip writer (`archive/zip_writer.c`) onto a file the caller
/// created (in the site's staging folder, through `SiteWriter.createScratch`: never through a link, never
/// over anything): each entry streamed from an open file in 1 MiB blocks, every entry's bytes and the
/// archive's own hashed on the way with the build's content hash. What the archive holds, byte for byte, is
/// decided in the C (see `cimageio_zip.h`): stored entries, mode 0644, owner 0, no time, UTF-8 names.
final class ZipArchive {
    private var zip: OpaquePointer?
    private let hasher: ContentHasher
    /// The file being written, for messages.
    let path: String

    /// Starts an archive on `descriptor` (left open: the caller's).
    init(descriptor: Int32, path: String, hasher: ContentHasher) throws(FileSystemError) {
        self.path = path
        self.hasher = hasher
        var result = wf_zip_result()
        zip = hasher.withState { wf_zip_open(descriptor, $0, &result) }
        if zip == nil { throw error(result, source: nil) }
    }

    deinit { wf_zip_free(zip) }

    /// Adds `file`'s first `size` bytes as the entry `name`; returns their content hash (the file's, when it
    /// is `size` bytes long), for the caller to prove the entry is what it meant to store; nil when the file
    /// ended before (the archive is then unusable, as after a throw).
    func add(_ name: String, from file: OpenFile, size: Int) throws(FileSystemError) -> ContentDigest? {
        guard let zip else { throw FileSystemError(path, "the archive was already closed (a bug in Waterfall)") }
        var result = wf_zip_result()
        var hash = [UInt8](repeating: 0, count: Int(WF_ZIP_HASH_BYTES))
        let status = hash.withUnsafeMutableBufferPointer { wf_zip_add(zip, name, file.descriptor, UInt64(size), $0.baseAddress!, &result) }
        guard status == WF_ZIP_OK else {
            wf_zip_free(zip)
            self.zip = nil
            if status == WF_ZIP_ERR_SHORT { return nil }
            throw error(result, source: file.path)
        }
        return hasher.digest(streamed: hash)
    }

    /// Writes the central directory and the last block: the archive's size and content hash.
    func close() throws(FileSystemError) -> (bytes: Int, hash: ContentDigest) {
        guard let zip else { throw FileSystemError(path, "the archive was already closed (a bug in Waterfall)") }
        self.zip = nil  // wf_zip_close frees it, whatever happens
        var result = wf_zip_result()
        var bytes: UInt64 = 0
        var hash = [UInt8](repeating: 0, count: Int(WF_ZIP_HASH_BYTES))
        let status = hash.withUnsafeMutableBufferPointer { wf_zip_close(zip, &bytes, $0.baseAddress!, &result) }
        guard status == WF_ZIP_OK else { throw error(result, source: nil) }
        return (Int(bytes), hasher.digest(streamed: hash))
    }

    /// What went wrong, in the words the rest of the build uses: a write that failed is the storage's (a
    /// full disk stops the build), a read that failed is the entry's file's.
    private func error(_ result: wf_zip_result, source: String?) -> FileSystemError {
        let message = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        switch result.status {
        case WF_ZIP_ERR_WRITE: return .system(path, "cannot write", result.error)
        case WF_ZIP_ERR_READ: return .system(source ?? path, "cannot read", result.error)
        default: return FileSystemError(path, "cannot write the archive: \(message)")
        }
    }
}
