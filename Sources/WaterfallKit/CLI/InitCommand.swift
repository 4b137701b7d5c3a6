/// `waterfall init [DIR] [--theme]`: a starter `waterfall.json` with the common settings written out at
/// their defaults, and with `--theme` a copy of the default theme to edit. It never replaces anything:
/// when a file it would write is there already, it writes nothing.
struct InitCommand {
    static let name = "init"

    static let help = """
        Usage: waterfall init [DIR] [--theme]

        Starts a gallery in DIR (default: the current folder; made when missing): writes
        DIR/waterfall.json with the settings people change most, each at its default, to edit.
        Nothing is ever replaced: if DIR/waterfall.json (or, with --theme, DIR/theme) is there
        already, nothing is written.

        Options:
          --theme              also copy the default theme into DIR/theme, to edit; build with
                               --templates DIR/theme (the scan leaves a theme folder out)
          -h, --help           show this help

        Every setting is in docs/configuration.md.

        """

    var folder = PathArgument(".")
    var theme = false

    /// The keys written, in this order: those people change most.
    static let keys = ["title", "sort", "reverse", "perPage", "formats", "quality", "originals", "zip",
                       "bottom", "maxCrop", "densities", "footerText"]

    static func parse(_ arguments: [[UInt8]]) throws -> InitCommand? {
        var command = InitCommand()
        var folders: [PathArgument] = []
        var scanner = ArgumentScanner(arguments, command: name)
        while let argument = try scanner.next() {
            switch argument {
            case .positional(let path): folders.append(path)
            case .option("--theme"): command.theme = true
            case .option("--help"), .option("-h"): return nil
            case .option(let other): throw scanner.unknown(other)
            }
        }
        guard folders.count <= 1 else { throw UsageError("init takes one folder, got \(folders.count)", command: name) }
        if let folder = folders.first { command.folder = folder }
        return command
    }

    func run(console: Console, paths: ArgumentPaths, decoder: DecoderProgram) throws -> ExitCode {
        do {
            let path = try paths.usable(folder, creating: true)
            let target = try FolderHandle.open(path, create: true)
            var themeFolder: String?
            if theme {
                do { themeFolder = try Theme.locate(explicit: nil).folder } catch { console.error("\(error)"); return .failure }
            }
            for name in ["waterfall.json"] + (theme ? ["theme"] : []) where target.status(name) != nil {
                console.error("\(target.display(name)) is there already; init never replaces anything, so nothing was written")
                return .failure
            }
            let title = FolderPath.lastComponent(of: String(decoding: RealPath.resolved(path), as: UTF8.self))
            // The theme whole or not at all: copied into a new folder of its own, renamed into place only when
            // complete; the settings file last, so a failure leaves nothing of either behind.
            if let themeFolder { try Self.placeTheme(from: themeFolder, into: target) }
            do {
                try target.writeNew("waterfall.json", Array(Self.starter(title: title).utf8))
            } catch {
                if themeFolder != nil { Self.removeTree("theme", in: target) }
                throw error
            }
            console.out("wrote \(target.display("waterfall.json"))\n")
            if themeFolder != nil {
                console.out("wrote \(target.display("theme")) (build with --templates \(target.display("theme")))\n")
            }
            return .success
        } catch {
            console.error("\(error)")
            return .failure
        }
    }

    /// Copies the theme into a new dot-folder of `target` (a name nothing holds), then renames it `theme`,
    /// never over anything; on any failure what was made is removed.
    static func placeTheme(from theme: String, into target: FolderHandle) throws(FileSystemError) {
        var staging = ".waterfall-init-theme"
        var attempt = 0
        while target.status(staging) != nil {
            attempt += 1
            staging = ".waterfall-init-theme-\(attempt)"
        }
        do {
            try Theme(folder: theme).copy(into: target.folder(staging, create: true))
            try target.renameNew(staging, to: target, as: "theme")
        } catch {
            removeTree(staging, in: target)
            throw error
        }
    }

    /// Removes the folder `name` that init made, and what is in it, never through a link.
    static func removeTree(_ name: String, in parent: FolderHandle) {
        guard let folder = try? parent.folder(name, create: false) else { return }
        for entry in (try? folder.list()) ?? [] {
            guard let child = entry.text else { continue }
            if entry.kind == .folder { removeTree(child, in: folder) } else { _ = folder.remove(child) }
        }
        _ = parent.removeEmptyFolder(name)
    }

    /// The starter settings: each key's default, as a configuration made with every default holds it
    /// (the title is the folder's name, which is the default too).
    static func starter(title: String) -> String {
        let defaults = SiteConfiguration()
        let values: [String: JSONValue] = [
            "title": .string(title), "sort": .string(defaults.sort.rawValue),
            "reverse": .bool(defaults.reverse), "perPage": .int(defaults.perPage),
            "formats": .array(defaults.formats.map { .string($0.rawValue) }), "quality": .int(defaults.quality),
            "originals": .string(defaults.originals.rawValue), "zip": .bool(defaults.zip), "bottom": .string(defaults.bottom.rawValue),
            "maxCrop": .double(defaults.maxCrop), "densities": .array(defaults.densities.map { .int($0) }),
            "footerText": .string(defaults.footerText),
        ]
        return "{\n" + keys.map { "  \(JSONValue.string($0).rendered()): \(values[$0]!.rendered())" }.joined(separator: ",\n") + "\n}\n"
    }
}
