/// Where one element of the board goes: an item (a tile), the header or the footer.
public struct LayoutAttributes: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case item, header, footer
    }

    public var kind: Kind
    /// The item's index in reading order; 0 for the header and the footer.
    public var index: Int
    public var frame: Rect
    /// The column an item was placed in (0 is the leftmost); nil for the header and the footer,
    /// which span the whole width.
    public var column: Int?

    public init(kind: Kind, index: Int, frame: Rect, column: Int?) {
        self.kind = kind
        self.index = index
        self.frame = frame
        self.column = column
    }
}
