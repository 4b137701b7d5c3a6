/// A `waterfall` sub-command: its name, its help, its parser and what it does.
protocol Command {
    static var name: String { get }
    static var help: String { get }
    /// The command for these arguments (those after its name, as bytes); nil when help was asked for.
    static func parse(_ arguments: [[UInt8]]) throws -> Self?
    /// Runs it; `paths` makes the path arguments usable, and is what `console` shows them by; `decoder` is what
    /// decoder processes run (`DecoderPool`).
    func run(console: Console, paths: ArgumentPaths, decoder: DecoderProgram) throws -> ExitCode
}

extension BuildCommand: Command {}
extension InspectCommand: Command {}
extension LayoutCommand: Command {}
extension ResizeCommand: Command {}
extension ServeCommand: Command {}
extension InitCommand: Command {}
