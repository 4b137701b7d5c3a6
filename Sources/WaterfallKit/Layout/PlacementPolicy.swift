/// How items are distributed over the columns.
public enum PlacementPolicy: String, Sendable, Hashable, CaseIterable {
    /// Shortest-column placement, then the last few items (``ColumnPlanner/tailLength(columnCount:)``)
    /// re-placed to make the columns' bottoms as level as possible. Each column still takes its
    /// items in gallery order; only the reading order of those last items can change.
    case balanced
    /// Each item goes to the column where its top would be highest (the shortest column), the
    /// leftmost one on ties. This is what CHTCollectionViewWaterfallLayout does and keeps the
    /// columns' bottoms within about one tile of each other.
    case shortestColumn
    /// Item i goes to column i mod c, as the simplest tutorials do. Kept for comparison: the
    /// columns drift apart as soon as the photos' aspect ratios differ.
    case roundRobin

    /// The policy a command line or settings file names: its `name`, or the long spelling of one.
    public static func named(_ text: String) -> PlacementPolicy? {
        switch text {
        case "balanced": .balanced
        case "shortest", "shortest-column": .shortestColumn
        case "round-robin", "roundrobin": .roundRobin
        default: nil
        }
    }

    /// The name the command line and reports use.
    public var name: String {
        switch self {
        case .balanced: "balanced"
        case .shortestColumn: "shortest"
        case .roundRobin: "round-robin"
        }
    }
}
