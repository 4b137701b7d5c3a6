/// How the board's columns end.
public enum BottomPolicy: Sendable, Hashable {
    /// Every tile at its photo's full height: the columns end where placement leaves them.
    case natural
    /// Every column ends on one line: the last tile of each column is shortened (its image cropped,
    /// centred, by `object-fit: cover`) by at most `maxCrop` of its height. Balanced placement then
    /// looks for the assignment that needs the least crop; where no assignment is within the limit,
    /// the board keeps its natural (balanced) end.
    case flush(maxCrop: Double)

    /// A share of a tile's height a flush bottom may cut off by default.
    public static let defaultMaxCrop = 0.15

    /// The name the command line and reports use.
    public var name: String {
        switch self {
        case .natural: "natural"
        case .flush: "flush"
        }
    }

    /// The crop limit of a flush bottom; nil for a natural one.
    public var maxCrop: Double? {
        if case .flush(let limit) = self { return limit }
        return nil
    }
}
