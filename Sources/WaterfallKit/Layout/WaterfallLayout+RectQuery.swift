extension WaterfallLayout {
    /// Every element whose frame shares an interior point with `rect` (see ``Rect/intersects(_:)``):
    /// the header first, then the items column by column (each column top to bottom, so in index
    /// order within a column), then the footer. Sort by `index` if reading order is needed.
    ///
    /// Complexity: O(c·log(n/c) + k) for c columns, n items and k results. Within a column the
    /// items' minY and maxY both increase (the next top is the previous bottom plus r ≥ 0), so a
    /// binary search finds the first item whose bottom is below `rect.minY` and a walk stops at
    /// the first whose top is at or past `rect.maxY`; columns outside `rect` horizontally are skipped.
    public func layoutAttributesForElements(in rect: Rect) -> [LayoutAttributes] {
        var result: [LayoutAttributes] = []
        if let header, header.frame.intersects(rect) { result.append(header) }
        for column in columnItems where !column.isEmpty {
            let first = itemAttributes[column[0]].frame
            // All items of a column share x and width.
            guard first.minX < rect.maxX, rect.minX < first.maxX else { continue }
            var position = firstPosition(in: column) { $0.maxY > rect.minY }
            while position < column.count {
                let item = itemAttributes[column[position]]
                guard item.frame.minY < rect.maxY else { break }
                result.append(item)
                position += 1
            }
        }
        if let footer, footer.frame.intersects(rect) { result.append(footer) }
        return result
    }

    /// The first position in `column` whose frame satisfies `predicate`, which must be false for
    /// a prefix of the column and true for the rest (`column.count` when it is never true).
    private func firstPosition(in column: [Int], where predicate: (Rect) -> Bool) -> Int {
        var low = 0
        var high = column.count
        while low < high {
            let middle = low + (high - low) / 2
            if predicate(itemAttributes[column[middle]].frame) {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return low
    }
}
