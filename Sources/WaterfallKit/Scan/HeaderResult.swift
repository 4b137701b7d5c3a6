/// A file's path with its header, or why it has none.
struct HeaderResult: Sendable {
    var path: String
    var header: Result<ImageHeader, ImageReadError>

    init(path: String, header: Result<ImageHeader, ImageReadError>) {
        self.path = path
        self.header = header
    }

    /// A walked entry's header (or why there is none).
    init(reading entry: FolderWalker.Entry, with reader: MediaReader) {
        switch entry {
        case .file(let path): self.init(path: path, header: reader.read(path: path))
        case .skipped(let path, let reason, _), .note(let path, let reason):
            self.init(path: path, header: .failure(ImageReadError(.io, reason)))
        }
    }

    var succeeded: Bool {
        if case .success = header { return true }
        return false
    }

    var isDirectory: Bool {
        if case .failure(let error) = header { return error.kind == .directory }
        return false
    }
}
