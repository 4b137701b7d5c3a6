/// A `waterfall` sub-command: its name, its help, its parser and what it does.
protocol Command {
    static var name: String { get }
    static var help: String { get }
    /// The command for these arguments (those after its name); nil when help was asked for.
    static func parse(_ arguments: [String]) throws -> Self?
    /// `decoder` is what decoder processes run (`DecoderPool`).
    func run(console: Console, decoder: DecoderProgram) throws -> ExitCode
}

extension BuildCommand: Command {}
extension InspectCommand: Command {}
extension LayoutCommand: Command {}
extension ResizeCommand: Command {}
