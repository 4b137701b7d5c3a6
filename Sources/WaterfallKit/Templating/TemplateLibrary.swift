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
    /// file by its path under `folder`. Links are followed only where `links` allows; a template that
    /// cannot be used (a link that leaves the theme, a FIFO) is left out and reported to `warn`, or is an
    /// error naming it when there is no `warn`.
    public init(folder: String) throws(TemplateError) {
        try self.init(folder: folder, limits: .standard, links: nil)
    }

    init(folder: String, limits: TemplateLimits = .standard, links: LinkPolicy?,
         warn: ((String) -> Void)? = nil) throws(TemplateError) {
        var info = stat()
        guard stat(folder, &info) == 0 else { throw TemplateError(file: folder, message: "\(POSIXErrorText(errno))") }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw TemplateError(file: folder, message: "not a folder") }
        var templates: [String: Template] = [:]
        for entry in FolderWalker(recursive: false, links: links).files(under: folder) {
            let fileName = FolderPath.lastComponent(of: entry.path)
            guard fileName.hasSuffix(Self.fileExtension), fileName.count > Self.fileExtension.count else { continue }
            let path: String
            switch entry {
            case .skipped(let shown, let reason, _), .note(let shown, let reason):
                guard let warn else { throw TemplateError(file: shown, message: "cannot read: \(reason)") }
                warn("\(PathText.display(shown)): skipped: \(reason)")
                continue
            case .file(let file): path = file
            }
            let bytes: [UInt8]
            do {
                // Opened non-blocking and only a regular file (a FIFO in a theme cannot stall the build).
                let file = try OpenFile.open(path)
                guard file.size <= limits.templateBytes else { throw Template.tooLarge(path, limits) }
                bytes = try file.read(limit: limits.templateBytes)
            } catch let error as TemplateError {
                throw error
            } catch {
                throw TemplateError(file: path, message: "cannot read: \((error as? FileSystemError)?.reason ?? "\(error)")")
            }
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
}
