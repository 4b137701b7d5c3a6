import Foundation

/// A still's colours on a small grid, as a PNG of a couple of hundred bytes (`wf_raster_sketch`): what a
/// page shows inline, scaled up, where the image will be, until the image arrives.
public struct Sketch: Sendable, Equatable {
    /// The PNG in base64, as a data URL and the cache carry it.
    public let base64: String

    static let maximumLength = 512

    public init(png: some Collection<UInt8>) {
        base64 = Data(png).base64EncodedString()
    }

    /// From the cache's text; nil unless it is base64 of a plausible length, so that a planted entry can
    /// put nothing but an image into a page's style.
    public init?(base64 text: String) {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= Self.maximumLength, bytes.count % 4 == 0,
              bytes.allSatisfy({ Self.alphabet.contains($0) || $0 == UInt8(ascii: "=") }) else { return nil }
        base64 = text
    }

    /// `data:image/png;base64,…`
    public var dataURL: String { "data:image/png;base64," + base64 }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
}
