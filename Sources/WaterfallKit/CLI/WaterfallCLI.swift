/// The `waterfall` command line: picks the command, runs it, maps errors to exit statuses.
public enum WaterfallCLI {
    public static let version = "0.1.0"

    static let help = """
        Usage: waterfall COMMAND [OPTIONS]

        Turns a folder of photos into a waterfall (masonry) gallery of plain HTML and CSS.

        Commands:
          inspect PATH...   show each image's format, stored size, orientation and display size

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
            console.out(rest.first == InspectCommand.name ? InspectCommand.help : help)
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
        default:
            throw UsageError(first.hasPrefix("-") ? "unknown option \(first)" : "unknown command '\(first)'")
        }
    }
}
