/// Left-aligned columns for terminal output. A row shorter than the heading (an error line) runs on
/// past the column edges instead of widening them.
struct TextTable {
    var heading: [String]
    var rows: [[String]]

    func rendered() -> String {
        var widths = heading.map(\.count)
        // A short row's last cell spans the rest of the line; its other cells still size their columns.
        for row in rows {
            for (column, cell) in row.enumerated() where column < row.count - 1 || row.count == heading.count {
                widths[column] = max(widths[column], cell.count)
            }
        }
        return ([heading] + rows).map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(to: widths[column] + 2)
            }.joined() + "\n"
        }.joined()
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
