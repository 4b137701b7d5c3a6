#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A theme's templates, loaded from the `NAME.mustache` files of one folder and parsed up front, so every
/// syntax error shows before anything is rendered. Each template is also a partial for the others, by NAME.
public struct TemplateLibrary: PartialProvider, Sendable {
    public static let fileExtension = ".mustache"

    public let templates: [String: Template]
    /// Where the templates came from, for naming the missing ones; nil when built from memory.
    public let folder: String?

    public init(templates: [String: Template]) {
        self.templates = templates
        folder = nil
    }

    /// Loads every `*.mustache` file directly in `folder` (not in subfolders, not dot-files). Errors name the
    /// file by its path under `folder`.
    public init(folder: String) throws(TemplateError) {
        try self.init(folder: folder, limits: .standard)
    }

    init(folder: String, limits: TemplateLimits) throws(TemplateError) {
        var info = stat()
        guard stat(folder, &info) == 0 else { throw TemplateError(file: folder, message: "\(POSIXErrorText(errno))") }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw TemplateError(file: folder, message: "not a folder") }
        var templates: [String: Template] = [:]
        for entry in FolderWalker(recursive: false).files(under: folder) {
            let path: String
            switch entry {
            case .unreadable(let folder, let reason): throw TemplateError(file: folder, message: reason)
            case .file(let file): path = file
            }
            let fileName = path.split(separator: "/").last.map(String.init) ?? path
            guard fileName.hasSuffix(Self.fileExtension), fileName.count > Self.fileExtension.count else { continue }
            let bytes = try Self.contents(of: path, limit: limits.templateBytes)
            guard bytes.count <= limits.templateBytes else { throw Template.tooLarge(path, limits) }
            guard let source = String(validating: bytes, as: UTF8.self) else {
                throw TemplateError(file: path, message: "not UTF-8 text")
            }
            templates[String(fileName.dropLast(Self.fileExtension.count))] = try Template(source: source, name: path, limits: limits)
        }
        self.templates = templates
        self.folder = folder
    }

    /// The template names, sorted.
    public var names: [String] { templates.keys.sorted() }

    public func partial(named name: String) -> Template? { templates[name] }

    /// Renders the template `NAME` with the others available as partials.
    public func render(name: String, value: TemplateValue) throws(TemplateError) -> String {
        guard let template = templates[name] else {
            let file = folder.map { FolderWalker.join($0, name + Self.fileExtension) } ?? name + Self.fileExtension
            let known = names.isEmpty ? "there are no templates" : "templates: " + Self.list(names)
            throw TemplateError(file: file, message: "no such template (\(known))")
        }
        return try template.render(value, partials: self)
    }

    /// Names for a message: the first ten, and how many more (a theme may have thousands of partials).
    private static func list(_ names: [String]) -> String {
        let shown = names.prefix(10).map { TemplateError.excerpt($0) }.joined(separator: ", ")
        return names.count > 10 ? shown + " and \(names.count - 10) more" : shown
    }

    /// A whole file, through read(2): templates are small, and this needs no Foundation. Only a regular file
    /// (opened non-blocking, so a FIFO in a theme cannot stall the build), and no more than `limit` + 1
    /// bytes of it (a template past the limit, or a link to /dev/zero, is not read whole).
    private static func contents(of path: String, limit: Int) throws(TemplateError) -> [UInt8] {
        func failure(_ reason: String) -> TemplateError { TemplateError(file: path, message: "cannot read: \(reason)") }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("\(POSIXErrorText(errno))") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("\(POSIXErrorText(errno))") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw failure("not a regular file") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("\(POSIXErrorText(errno))")
            }
            bytes.append(contentsOf: chunk[..<count])
        }
        return bytes
    }
}
