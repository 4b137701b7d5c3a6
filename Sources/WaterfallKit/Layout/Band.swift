/// One responsive breakpoint band: from `minimumWidth` (inclusive) up to the next band's minimum
/// width (exclusive), with its own column count and, optionally, its own spacing and insets
/// (nil means "use the configuration"). The last band is open-ended; the first one also serves
/// every narrower width, since its CSS is the default that the media queries override.
public struct Band: Sendable, Hashable {
    /// The narrowest container width of the band, in CSS pixels; it must leave items a positive width.
    public var minimumWidth: Double
    public var columnCount: Int
    public var columnSpacing: Double?
    public var rowSpacing: Double?
    public var edgeInsets: EdgeInsets?

    public init(
        minimumWidth: Double,
        columnCount: Int,
        columnSpacing: Double? = nil,
        rowSpacing: Double? = nil,
        edgeInsets: EdgeInsets? = nil
    ) {
        self.minimumWidth = minimumWidth
        self.columnCount = columnCount
        self.columnSpacing = columnSpacing
        self.rowSpacing = rowSpacing
        self.edgeInsets = edgeInsets
    }

    /// `base` with this band's column count and whichever spacing and insets it sets.
    public func configuration(basedOn base: WaterfallConfiguration) -> WaterfallConfiguration {
        var result = base
        result.columnCount = columnCount
        if let columnSpacing { result.columnSpacing = columnSpacing }
        if let rowSpacing { result.rowSpacing = rowSpacing }
        if let edgeInsets { result.edgeInsets = edgeInsets }
        return result
    }
}
