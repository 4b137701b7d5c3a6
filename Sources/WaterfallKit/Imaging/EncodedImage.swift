/// A derived image made in memory (by a decoder process): what it is, and its bytes, for the build to write.
struct EncodedImage: Sendable {
    var image: DerivedImage
    var bytes: [UInt8]
}
