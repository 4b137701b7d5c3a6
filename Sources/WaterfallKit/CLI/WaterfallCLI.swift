/// The `waterfall` command line: picks the command, runs it, maps errors to exit statuses.
public enum WaterfallCLI {
    public static let version = Versions.program

    static let help = """
        Usage: waterfall COMMAND [OPTIONS]

        Turns a folder of photos into a waterfall (masonry) gallery of plain HTML and CSS.

        Commands:
          init [DIR]        start a gallery: a waterfall.json to edit (and --theme, a theme)
          build [INPUT]     build a gallery of the photos in INPUT into _site (or -o OUTPUT)
          serve [INPUT]     build, serve it at http://127.0.0.1:8000/, rebuild and reload on change
          inspect PATH...   show each image's format, stored size, orientation and display size
          layout DIR        lay out a folder's photos as a waterfall board of a given width
          resize PATH...    make one resized, upright, metadata-free image per photo

        Options:
          -h, --help        show this help (also: waterfall COMMAND --help)
          -v, --version     show the version

        """

    /// `decoder` is what the commands' decoder processes run: the `waterfall` executable (main passes `.this`).
    public static func run(_ arguments: [String], console: Console = .standard, decoder: DecoderProgram = .standard) -> ExitCode {
        run(bytes: arguments.map { Array($0.utf8) }, console: console, decoder: decoder)
    }

    /// The arguments as the system hands them over: bytes, which need not be UTF-8 (`main` reads them from
    /// `argv`, not `CommandLine.arguments`, which replaces such bytes). Every diagnostic shows a path that is
    /// not UTF-8 as it was given, escaped.
    public static func run(bytes arguments: [[UInt8]], console: Console = .standard, decoder: DecoderProgram = .standard) -> ExitCode {
        let paths = ArgumentPaths()
        let console = console.showing(paths)
        do {
            return try dispatch(arguments, console: console, paths: paths, decoder: decoder)
        } catch let error as UsageError {
            console.error(error.message)
            let hint = error.command.map { "waterfall \($0) --help" } ?? "waterfall --help"
            console.writeError("Try '\(hint)' for more information.\n")
            return .usage
        } catch {
            console.error("\(error)")
            return .failure
        }
    }

    /// Every command, in the order the help lists them.
    static var commands: [any Command.Type] {
        [InitCommand.self, BuildCommand.self, ServeCommand.self, InspectCommand.self, LayoutCommand.self, ResizeCommand.self]
    }

    static var commandNames: [String] {
        var names: [String] = []
        for type in commands { names.append(type.name) }
        return names
    }

    /// A command's help text, by its name.
    static func help(of name: String) -> String? {
        for type in commands where type.name == name { return type.help }
        return nil
    }

    private static func dispatch(_ arguments: [[UInt8]], console: Console, paths: ArgumentPaths, decoder: DecoderProgram) throws -> ExitCode {
        guard let first = arguments.first.map({ String(decoding: $0, as: UTF8.self) }) else {
            console.writeError(help)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help", "help":
            let topic = rest.first.map { String(decoding: $0, as: UTF8.self) }
            console.out(commands.first { $0.name == topic }?.help ?? help)
            return .success
        case "--version", "-V", "-v", "version":
            console.out("waterfall \(version)\n")
            return .success
        default:
            guard let type = commands.first(where: { $0.name == first }) else {
                let known = first.hasPrefix("-") ? ["--help", "--version"] : commandNames + ["help", "version"]
                let hint = Suggestion.nearest(to: first, among: known).map { first.hasPrefix("-") ? "; did you mean \($0)?" : "; did you mean '\($0)'?" }
                throw UsageError((first.hasPrefix("-") ? "unknown option \(first)" : "unknown command '\(first)'") + (hint ?? ""))
            }
            return try run(type, rest, console: console, paths: paths, decoder: decoder)
        }
    }

    private static func run<C: Command>(_ type: C.Type, _ arguments: [[UInt8]], console: Console, paths: ArgumentPaths,
                                        decoder: DecoderProgram) throws -> ExitCode {
        guard let command = try type.parse(arguments) else {
            console.out(type.help)
            return .success
        }
        return try command.run(console: console, paths: paths, decoder: decoder)
    }
}
