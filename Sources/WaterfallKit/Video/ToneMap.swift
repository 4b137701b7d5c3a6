/// HDR video (PQ, or HLG as an iPhone records it) made SDR wherever Waterfall decodes its frames: a poster,
/// a converted video, a Live Photo's converted clip. Taken as it is, its BT.2020 colours and HDR curve
/// would be read as BT.709: flat, grey and pale. zimg (`zscale`) makes the light linear, moves the colours to
/// BT.709's primaries, `tonemap` brings them into SDR's range, and zimg writes them with BT.709's curve and
/// matrix. Möbius's curve leaves what SDR can show nearly as it is and bends only the highlights above it
/// (Hable's darkens an SDR-bright frame by a third).
enum ToneMap {
    /// The filters that go first in a chain over the video's frames: none for a video that is not HDR.
    static func filters(for facts: VideoFacts) -> [String] {
        guard facts.isHDR else { return [] }
        return ["zscale=t=linear:npl=100", "format=gbrpf32le", "zscale=p=bt709", "tonemap=tonemap=mobius:desat=0",
                "zscale=t=bt709:m=bt709:r=tv"]
    }

    /// What an encoder is told the SDR frames are, so that a player does not take them for HDR.
    static func outputTags(for facts: VideoFacts) -> [String] {
        guard facts.isHDR else { return [] }
        return ["-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709"]
    }
}
