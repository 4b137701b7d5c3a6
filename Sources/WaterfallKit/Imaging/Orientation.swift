/// EXIF orientation (tag 0x0112): how the stored pixels must be turned to display upright.
public struct Orientation: RawRepresentable, Sendable, Hashable, Codable {
    public let rawValue: Int

    /// Values outside 1–8, seen in the wild as 0, 9 and 255, mean "as stored", as libvips and browsers treat them.
    public init(rawValue: Int) {
        self.rawValue = (1...8).contains(rawValue) ? rawValue : 1
    }

    public static let up = Orientation(rawValue: 1)

    /// 5–8 transpose the image (a quarter turn, with or without a mirror); 2–4 only mirror or turn it half way.
    public var swapsWidthAndHeight: Bool { rawValue >= 5 }
}
