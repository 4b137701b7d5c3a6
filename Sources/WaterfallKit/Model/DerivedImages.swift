/// A cache entry's derived images by label (`500`, `view.avif`): a handful each, so a small array kept in
/// label order rather than a dictionary, which would cost an allocation of its own and a hash per look-up
/// in each of 100,000 entries.
struct DerivedImages: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    private var items: [Item] = []

    private struct Item: Sendable, Equatable {
        var label: String
        var image: StoredImage
    }

    init() {}

    init(dictionaryLiteral elements: (String, StoredImage)...) {
        for (label, image) in elements { self[label] = image }
    }

    init(_ images: [String: StoredImage]) {
        for (label, image) in images { self[label] = image }
    }

    var count: Int { items.count }
    var isEmpty: Bool { items.isEmpty }

    /// The labels, sorted (the order entries are written in).
    var labels: [String] { items.map(\.label) }

    subscript(label: String) -> StoredImage? {
        get { items.first { $0.label == label }?.image }
        set {
            let position = items.firstIndex { $0.label == label }
            switch (position, newValue) {
            case (let position?, let image?): items[position].image = image
            case (let position?, nil): items.remove(at: position)
            case (nil, let image?): items.insert(Item(label: label, image: image), at: items.firstIndex { label < $0.label } ?? items.endIndex)
            case (nil, nil): break
            }
        }
    }

    func makeIterator() -> some IteratorProtocol<(label: String, image: StoredImage)> {
        items.lazy.map { ($0.label, $0.image) }.makeIterator()
    }
}
