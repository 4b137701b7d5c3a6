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
/// as inline custom properties; the rules that use them are per band, written once in `css`.
struct BoardStyle: Sendable {
    /// Rules for the page's `<style>`: band 0 unconditioned, the others in container and media queries.
    let css: String
    /// Each tile's inline `style` attribute, in item order.
    let tileStyles: [String]
    /// Whether each tile is on the first screen at some width (so its image loads eagerly).
    let firstScreen: [Bool]

    /// How far down a tile counts as being on the first screen.
    static let firstScreenHeight: Double = 1000

    init(layout: ResponsiveLayout, aspectRatios: [Double], footerHeight: Double) {
        let bands = layout.bands
        var styles = aspectRatios.map { "--k:\(DecimalText.format($0, decimals: 6))" }
        var firstScreen = [Bool](repeating: false, count: aspectRatios.count)
        for (number, band) in bands.enumerated() {
            for (index, frame) in band.itemFrames.enumerated() {
                styles[index] += ";--c\(number):\(band.columns[index]);--t\(number):\(Self.css(frame.y))"
                if frame.y.evaluate(at: band.referenceWidth) < Self.firstScreenHeight { firstScreen[index] = true }
            }
        }
        tileStyles = styles
        self.firstScreen = firstScreen

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
        return ".wf-board{padding-bottom:\(css(band.contentHeight))}"
            + ".wf-tile{left:calc(\(left) + var(--c\(number)) * \(pitch));margin-top:var(--t\(number));"
            + "width:\(width);padding-bottom:calc(var(--k) * \(width))}"
            + ".wf-footer{margin-top:\(css(band.footerY))}\n"
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
