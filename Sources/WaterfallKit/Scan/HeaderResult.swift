/// A file's path with its header, or why it has none, and what its metadata says when that was asked for.
struct HeaderResult: Sendable {
    var path: String
    var header: Result<ImageHeader, ImageReadError>
    /// Read with the header, in the same decoder job, when asked for (`inspect --metadata`).
    var facts: PhotoFacts? = nil

    init(path: String, header: Result<ImageHeader, ImageReadError>) {
        self.path = path
        self.header = header
    }

    /// The header of the file at `path`, and with `facts` what its metadata says.
    init(path: String, reader: MediaReader, facts: Bool) {
        guard facts else {
            self.init(path: path, header: reader.read(path: path))
            return
        }
        let read = reader.read(path: path, facts: true)
        self.init(path: path, header: read.map(\.0))
        self.facts = try? read.get().1
    }

    /// A walked entry's header (or why there is none), and with `facts` what its metadata says.
    init(reading entry: FolderWalker.Entry, with reader: MediaReader, facts: Bool = false) {
        switch entry {
        case .file(let path): self.init(path: path, reader: reader, facts: facts)
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
