/// The `waterfall` command line: picks the command, runs it, maps errors to exit statuses.
public enum WaterfallCLI {
    public static let version = "0.1.0"

    static let help = """
        Usage: waterfall COMMAND [OPTIONS]

        Turns a folder of photos into a waterfall (masonry) gallery of plain HTML and CSS.

        Commands:
          build [INPUT]     build a gallery of the photos in INPUT into _site (or -o OUTPUT)
          inspect PATH...   show each image's format, stored size, orientation and display size
          layout DIR        lay out a folder's photos as a waterfall board of a given width
          resize PATH...    make one resized, upright, metadata-free image per photo

        Options:
          -h, --help        show this help (also: waterfall COMMAND --help)
          --version         show the version

        """

    public static func run(_ arguments: [String], console: Console = .standard) -> ExitCode {
        do {
            return try dispatch(arguments, console: console)
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

    private static func dispatch(_ arguments: [String], console: Console) throws -> ExitCode {
        guard let first = arguments.first else {
            console.writeError(help)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help", "help":
            switch rest.first {
            case InspectCommand.name: console.out(InspectCommand.help)
            case BuildCommand.name:
            guard let command = try BuildCommand.parse(rest) else {
                console.out(BuildCommand.help)
                return .success
            }
            return command.run(console: console)
        case ResizeCommand.name:
            guard let command = try ResizeCommand.parse(rest) else {
                console.out(ResizeCommand.help)
                return .success
            }
            return try command.run(console: console)
        case LayoutCommand.name: console.out(LayoutCommand.help)
            case BuildCommand.name: console.out(BuildCommand.help)
            case ResizeCommand.name: console.out(ResizeCommand.help)
            default: console.out(help)
            }
            return .success
        case "--version", "-V", "version":
            console.out("waterfall \(version)\n")
            return .success
        case InspectCommand.name:
            guard let command = try InspectCommand.parse(rest) else {
                console.out(InspectCommand.help)
                return .success
            }
            return command.run(console: console)
        case BuildCommand.name:
            guard let command = try BuildCommand.parse(rest) else {
                console.out(BuildCommand.help)
                return .success
            }
            return command.run(console: console)
        case ResizeCommand.name:
            guard let command = try ResizeCommand.parse(rest) else {
                console.out(ResizeCommand.help)
                return .success
            }
            return try command.run(console: console)
        case LayoutCommand.name:
            guard let command = try LayoutCommand.parse(rest) else {
                console.out(LayoutCommand.help)
                return .success
            }
            return try command.run(console: console)
        default:
            throw UsageError(first.hasPrefix("-") ? "unknown option \(first)" : "unknown command '\(first)'")
        }
    }
}
