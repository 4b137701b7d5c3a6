import Testing
@testable import WaterfallKit

/// A mistyped command or option gets the nearest known one, in words, and a word far from every known one
/// gets none; a flag's example is written as a flag is.
struct SuggestionTests {
    @Test(arguments: [
        (["bild"], "unknown command 'bild'; did you mean 'build'?"),
        (["serv"], "unknown command 'serv'; did you mean 'serve'?"),
        (["isnpect"], "unknown command 'isnpect'; did you mean 'inspect'?"),
        (["--hepl"], "unknown option --hepl; did you mean --help?"),
        (["build", "--watc"], "unknown option --watc; did you mean --watch?"),
        (["build", "--fromats", "avif"], "unknown option --fromats; did you mean --formats?"),
        (["build", "--templ", "t"], "unknown option --templ; did you mean --templates?"),
        (["inspect", "--jsno", "x"], "unknown option --jsno; did you mean --json?"),
        (["serve", "--prot", "3"], "unknown option --prot; did you mean --port?"),
        (["serve", "--titel", "x"], "unknown option --titel; did you mean --title?"),
        (["build", "--formats", ""], "--formats must be a list such as avif,webp,jpeg ending with jpeg"),
        (["build", "--insets", "1,2"], "--insets must be a number, or four numbers top,left,bottom,right (such as 8,16,8,16)"),
        (["build", "--formats", "avif"], "--formats must end with 'jpeg' (the fallback every browser shows), such as avif,jpeg or avif,webp,jpeg (got 'avif')"),
    ])
    func mistakesGetTheNearestWord(arguments: [String], message: String) throws {
        let run = try WaterfallProcess.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message + "\n"), "\(run.stderr)")
    }

    @Test func farWordsGetNone() throws {
        for arguments in [["frobnicate"], ["build", "--zzzz"], ["serve", "--qqqqqq"]] {
            let run = try WaterfallProcess.run(arguments)
            #expect(run.status == 64 && !run.stderr.contains("did you mean"), "\(run.stderr)")
        }
        #expect(Suggestion.nearest(to: "x", among: ["build"]) == nil)
        #expect(Suggestion.distance(Array("ab".unicodeScalars), Array("ba".unicodeScalars)) == 1)
    }

    @Test func dashVIsTheVersion() throws {
        let run = try WaterfallProcess.run(["-v"])
        #expect(run.status == 0 && run.stdout == "waterfall \(WaterfallCLI.version)\n")
    }
}
