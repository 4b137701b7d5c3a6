/// How items are distributed over the columns.
public enum PlacementPolicy: String, Sendable, Hashable, CaseIterable {
    /// Each item goes to the column where its top would be highest (the shortest column), the
    /// leftmost one on ties. This is what CHTCollectionViewWaterfallLayout does and keeps the
    /// columns' bottoms within about one tile of each other.
    case shortestColumn
    /// Item i goes to column i mod c, as the simplest tutorials do. Kept for comparison: the
    /// columns drift apart as soon as the photos' aspect ratios differ.
    case roundRobin
}
