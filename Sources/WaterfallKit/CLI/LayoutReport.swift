/// `waterfall layout` output: the board's geometry as JSON or as a table.
struct LayoutReport {
    var layout: WaterfallLayout
    /// File names relative to the folder, in item order.
    var files: [String]

    /// The footer's frame; a zero-height one where there is no footer element, so the JSON always has it.
    private var footerFrame: Rect {
        layout.footer?.frame ?? Rect(x: 0, y: layout.footerY, width: layout.containerWidth, height: 0)
    }

    func json() -> String {
        func rect(_ frame: Rect) -> [(String, JSONValue)] {
            [("x", .double(frame.x)), ("y", .double(frame.y)), ("width", .double(frame.width)), ("height", .double(frame.height))]
        }
        let items = layout.itemAttributes.map { item -> JSONValue in
            .object([("index", .int(item.index)), ("file", .string(files[item.index])), ("column", .int(item.column ?? 0))]
                + rect(item.frame) + (layout.naturalHeights[item.index].map { [("naturalHeight", JSONValue.double($0))] } ?? []))
        }
        let bottom = layout.configuration.bottom
        return JSONValue.object([
            ("width", .double(layout.containerWidth)),
            ("columns", .int(layout.configuration.columnCount)),
            ("contentHeight", .double(layout.contentSize.height)),
            ("items", .array(items)),
            ("footer", .object(rect(footerFrame))),
            ("placement", .string(layout.configuration.placement.name)),
            ("flowTolerance", .double(layout.configuration.flowTolerance)),
            ("bottom", .string(bottom.name)),
            ("maxCrop", bottom.maxCrop.map { .double($0) } ?? .null),
            ("flushLine", layout.flushLine.map { .double($0) } ?? .null),
            ("spread", .double(layout.bottomSpread)),
            ("spreadTileWidths", .double(layout.bottomSpread / layout.itemWidth)),
        ]).rendered() + "\n"
    }

    /// How the bottom came out, when a flush one was asked for.
    private var flushSummary: String {
        guard let limit = layout.configuration.bottom.maxCrop, layout.numberOfItems > 0 else { return "" }
        guard let line = layout.flushLine else {
            return "; flush bottom not reachable within \((limit * 100).readable)% crops, ends left natural"
        }
        let reshaped = layout.naturalHeights.count
        return "; flush at y \(line.readable), \(reshaped) tile\(reshaped == 1 ? "" : "s") reshaped"
    }

    func table() -> String {
        let rows = layout.itemAttributes.map { item in
            [String(item.index), files[item.index], String(item.column ?? 0)]
                + [item.frame.x, item.frame.y, item.frame.width, item.frame.height].map(\.readable)
        }
        let footer = footerFrame
        let summary = "\(files.count) photo\(files.count == 1 ? "" : "s"), \(layout.configuration.columnCount) columns "
            + "of \(layout.itemWidth.readable) px on a board \(layout.containerWidth.readable) px wide; "
            + "footer at y \(footer.y.readable), content height \(layout.contentSize.height.readable); "
            + "\(layout.configuration.placement.name) placement, bottoms \(layout.bottomSpread.readable) px "
            + "(\((layout.bottomSpread / layout.itemWidth).readable) tile widths) apart"
            + flushSummary + "\n"
        return TextTable(heading: ["INDEX", "FILE", "COLUMN", "X", "Y", "WIDTH", "HEIGHT"], rows: rows).rendered() + summary
    }
}
