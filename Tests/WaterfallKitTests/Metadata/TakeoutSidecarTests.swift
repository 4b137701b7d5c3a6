import Foundation
import Testing
@testable import WaterfallKit

/// Google Takeout's JSON sidecars (issue 30): each of Takeout's names finds its photo, the title, the
/// description and the date are used for what the photo lacks, and no location ever reaches the site.
struct TakeoutSidecarTests {
    static let fixtures = Fixtures.root.appendingPathComponent("takeout").path

    @Test func theNamesTakeoutWritesFindTheirPhotos() {
        let names = Set(["a/IMG_1.jpg.json", "a/IMG_2.jpg.supplemental-metadata.json", "a/IMG_3.json", "a/IMG_4.jpg(1).json",
                         "a/IMG_4.jpg.json", "a/IMG_5.jpg.supplemental-metad.json", "a/Party(2).jpg.json"].map { Array($0.utf8) })
        func found(_ photo: String) -> String? { TakeoutSidecar.sidecar(for: "a/" + photo, among: names) }
        #expect(found("IMG_1.jpg") == "a/IMG_1.jpg.json")
        #expect(found("IMG_2.jpg") == "a/IMG_2.jpg.supplemental-metadata.json")
        #expect(found("IMG_3.jpg") == "a/IMG_3.json")
        #expect(found("IMG_4.jpg") == "a/IMG_4.jpg.json")
        #expect(found("IMG_4(1).jpg") == "a/IMG_4.jpg(1).json")
        #expect(found("IMG_4-edited.jpg") == "a/IMG_4.jpg.json")
        #expect(found("IMG_4-bearbeitet.jpg") == "a/IMG_4.jpg.json")
        // A cut shorter than the photo's name (under 46) is another photo's.
        #expect(found("IMG_5.jpg") == "a/IMG_5.jpg.supplemental-metad.json")
        #expect(found("IMG_55.jpg") == nil)
        // A name with a counter of its own keeps its JSON; an unknown counter finds none.
        #expect(found("Party(2).jpg") == "a/Party(2).jpg.json")
        #expect(found("IMG_1(3).jpg") == nil)
        #expect(found("IMG_6.jpg") == nil)
    }

    @Test func theDateIsUTC() throws {
        let taken = try #require(TakeoutSidecar.taken(.string("1700000000")))
        #expect(taken.text == "2023-11-14 22:13:20" && taken.number == 20231114221320)
        #expect(TakeoutSidecar.taken(.string("0")) == nil && TakeoutSidecar.taken(.string("-5")) == nil)
        #expect(TakeoutSidecar.taken(.string("99999999999999")) == nil)
        #expect(TakeoutSidecar.taken(.string("951782400"))?.text == "2000-02-29 00:00:00")
    }

    @Test func aTakeoutFolderBuildsWithItsMetadata() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        for name in try Fixtures.files(in: "takeout") {
            try input.write(name, try Fixtures.bytes(Self.fixtures + "/" + name))
        }
        let photos = try String(contentsOfFile: Self.fixtures + "/photos.list", encoding: .utf8).split(separator: "\n").map(String.init)
        for name in photos { try input.copy(Fixtures.header("J01-baseline-jfif.jpg"), as: name) }
        let run = try WaterfallProcess.run(["build", input.path, "-o", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        func page(_ photo: String) throws -> String {
            try String(contentsOfFile: output.path + "/photos/\(photo).html", encoding: .utf8)
        }
        let first = try page("IMG_0001.jpg")
        #expect(first.contains("Sunset at the pier") && first.contains("First light over the water"))
        #expect(first.contains("2023-11-14 22:13:20"))
        // A title that is only the file's name is not a title: the description is shown as one.
        #expect(try page("IMG_0002.jpg").contains("Its title is only its name"))
        #expect(try !page("IMG_0002.jpg").contains("IMG_0002.jpg</h1>"))
        #expect(try page("PXL_20230615_101010123.PORTRAIT.jpg").contains("The supplemental suffix cut short"))
        #expect(try page("A_very_long_photo_file_name_from_a_phone_camera_1.jpg").contains("The name itself cut short"))
        #expect(try page("Été_à_la_plage_avec_toute_la_famille_réunie_2023.jpg").contains("Accented name cut at 46 characters"))
        #expect(try page("IMG_0005.jpg").contains("Named without the extension"))
        #expect(try page("IMG_0006.jpg").contains("The first of two"))
        #expect(try page("IMG_0006(1).jpg").contains("The duplicate"))
        #expect(try page("IMG_0007-edited.jpg").contains("Shared with its edited copy"))
        // NAME.txt's title wins; Takeout gives what it lacks.
        let ninth = try page("IMG_0009.jpg")
        #expect(ninth.contains("Title from the text file") && !ninth.contains("Not this title"))
        #expect(ninth.contains("The description only Takeout gives") && ninth.contains("2017-07-14 02:40:00"))
        // Broken JSON: one line naming it, and the photo is published.
        #expect(run.stderr.contains("IMG_0008.jpg.json: not valid JSON"), "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "IMG_0008.jpg.json").count == 2, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: output.path + "/photos/IMG_0008.jpg.html"))
        // JSON files are sidecars, never "unsupported" photos, and nothing else is said of them.
        #expect(!run.stderr.contains("notes.json") && !run.stderr.lowercased().contains("unsupported"), "\(run.stderr)")
        // No location, person or URL of the sidecars reaches any file of the site.
        for file in try Fixtures.siteFiles(in: output.path) {
            let text = String(decoding: try Fixtures.bytes(output.path + "/" + file), as: UTF8.self)
            for secret in ["48.858", "2.294", "Someone Private", "AF1QipN"] {
                #expect(!text.contains(secret), "\(file) holds \(secret)")
            }
        }
    }
}
