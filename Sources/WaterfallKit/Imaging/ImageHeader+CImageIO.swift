import CImageIO

extension ImageHeader {
    /// What the C reader found, as a header of `format` (the header reader and the thumbnailer both get
    /// a `wf_header` back).
    init(_ raw: wf_header, format: ImageFormat) {
        self.init(
            format: format,
            pixelWidth: Int(raw.width),
            pixelHeight: Int(raw.height),
            orientation: Orientation(rawValue: Int(raw.orientation)),
            components: Int(raw.components),
            progressive: raw.progressive != 0,
            bitDepth: Int(raw.bit_depth),
            bytesRead: Int(raw.bytes_read),
            frames: raw.animated != 0 ? max(2, Int(raw.frames)) : 1
        )
    }
}
