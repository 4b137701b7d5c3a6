/// The CSS that places every tile of a board at every width, with no script.
///
/// Each band's geometry is exact affine functions of the board width W (`a·W + b`, see `BandLayout`), and
/// CSS can say exactly that with percentages of the containing block's *width*: `left` and `width` in %,
/// and the vertical offset as `margin-top` and the height as `padding-bottom`, whose percentages are also
/// of the width. Every browser that knows `calc()` lays the board out right at every width, images or no
/// images. Bands switch with container queries on the board's frame, or with media queries where those
/// are missing (there the viewport stands in for the board width).
///
/// Per tile, the page carries only its aspect ratio `--k` and, per band, its column `--cN` and top `--tN`
/// as inline custom properties; the rules that use them are per band, written once in `css`. With a flush
/// bottom, each column's last tile also carries its band height `--hN`, `clamp(L − top, F − top, U − top)`
/// (see `FlushBottom`), and the footer sits under the lowest of those ends.
struct BoardStyle: Sendable {
    /// Rules for the page's `<style>`: band 0 unconditioned, the others in container and media queries.
    let css: String
    /// Each tile's inline `style` attribute, in item order.
    let tileStyles: [String]

    init(layout: ResponsiveLayout, aspectRatios: [Double], footerHeight: Double) {
        let bands = layout.bands
        var styles = aspectRatios.map { "--k:\(DecimalText.format($0, decimals: 6))" }
        for (number, band) in bands.enumerated() {
            for (index, frame) in band.itemFrames.enumerated() {
                styles[index] += ";--c\(number):\(band.columns[index]);--t\(number):\(Self.css(frame.y))"
            }
            if let flush = band.flush {
                for (column, index) in flush.lastItems.enumerated() {
                    styles[index] += ";--h\(number):" + Self.flushHeight(flush, column: column, frame: band.itemFrames[index])
                }
            }
        }
        tileStyles = styles

        var css = ".wf-footer{height:\(Self.px(footerHeight))}\n" + Self.rules(for: bands[0], number: 0)
        for (number, band) in bands.enumerated().dropFirst() {
            css += "@container wf (min-width:\(Self.px(band.band.minimumWidth))){\(Self.rules(for: band, number: number))}\n"
        }
        if bands.count > 1 {
            css += "@supports not (container-type:inline-size){\n"
            for (number, band) in bands.enumerated().dropFirst() {
                css += "@media (min-width:\(Self.px(band.band.minimumWidth))){\(Self.rules(for: band, number: number))}\n"
            }
            css += "}\n"
        }
        self.css = css
    }

    /// One band's rules: the board's height, each tile's box, the footer's offset.
    private static func rules(for band: BandLayout, number: Int) -> String {
        let configuration = band.configuration
        let width = css(band.itemWidth)
        let pitch = css(band.itemWidth + configuration.columnSpacing)
        let left = px(configuration.edgeInsets.left)
        let natural = "calc(var(--k) * \(width))"
        let footerY: String
        let contentHeight: String
        if let flush = band.flush {
            let gap = configuration.edgeInsets.bottom
            footerY = "calc(\(maxBottom(flush)) + \(px(gap)))"
            contentHeight = "calc(\(maxBottom(flush)) + \(px(gap + configuration.footerHeight)))"
        } else {
            footerY = css(band.footerY)
            contentHeight = css(band.contentHeight)
        }
        return ".wf-board{padding-bottom:\(contentHeight)}"
            + ".wf-tile{left:calc(\(left) + var(--c\(number)) * \(pitch));margin-top:var(--t\(number));"
            + "width:\(width);padding-bottom:" + (band.flush == nil ? natural : "var(--h\(number),\(natural))") + "}"
            + ".wf-footer{margin-top:\(footerY)}\n"
    }

    /// A flush column's last tile height, `clamp(L − top, F − top, U − top)`.
    private static func flushHeight(_ flush: FlushBottom, column: Int, frame: AffineRect) -> String {
        "clamp(\(css(flush.highestBottoms[column] - frame.y)),\(css(flush.line - frame.y)),"
            + "\(css(flush.lowestBottoms[column] - frame.y)))"
    }

    /// The lowest column end of a flush band: `max` over the columns of `clamp(L_j, F, U_j)`.
    private static func maxBottom(_ flush: FlushBottom) -> String {
        let ends = flush.lastItems.indices.map {
            "clamp(\(css(flush.highestBottoms[$0])),\(css(flush.line)),\(css(flush.lowestBottoms[$0])))"
        }
        return "max(" + ends.joined(separator: ",") + ")"
    }

    /// `a·W + b` as `calc(A% + Bpx)`, W being the containing block's width.
    static func css(_ length: AffineLength) -> String {
        let percent = DecimalText.format(length.scale * 100, decimals: 5)
        let offset = DecimalText.format(abs(length.offset), decimals: 3)
        if offset == "0" { return "calc(\(percent)% + 0px)" }
        return "calc(\(percent)% \(length.offset < 0 ? "-" : "+") \(offset)px)"
    }

    private static func px(_ value: Double) -> String { DecimalText.format(value, decimals: 3) + "px" }
}
