/// Which still and which video are one Live Photo (the README's rule): in the same folder, when both carry
/// Apple's content identifier and the two are equal (they are kept in capitals, so case is ignored), or,
/// when they do not both carry one, when their names are the same but for the extension (ASCII case ignored)
/// and the video lasts at most 4 s (4,000 ms, and 100 ms for a container's rounding). Two identifiers that
/// differ never pair. A still pairs with one video and a video with one still: identifiers first, then
/// names, each in natural name order, so every build pairs the same way.
enum LivePhotoPairing {
    /// The longest clip that pairs by name, in milliseconds.
    static let longest = 4_100

    /// What the rule needs of a photo or a video.
    struct Item {
        var name: String
        var isVideo: Bool
        var identifier: String?
        /// A video's duration; 0 when unknown (it then pairs by identifier only).
        var milliseconds = 0
    }

    /// Whether a still and a clip may be one Live Photo, before ties are resolved.
    static func matches(still: String?, clip: String?, milliseconds: Int, sameName: Bool) -> Bool {
        if let still, let clip { return still == clip }
        return sameName && (1...longest).contains(milliseconds)
    }

    /// The pairs among `items`, as (still, clip) indices, by the clip's index.
    static func pairs(_ items: [Item]) -> [(still: Int, clip: Int)] {
        var folders: [Substring: [Int]] = [:]
        for index in items.indices { folders[folder(of: items[index].name), default: []].append(index) }
        var pairs: [(still: Int, clip: Int)] = []
        for members in folders.values {
            let ordered = NaturalOrder.sorted(members) { items[$0].name }
            let clips = ordered.filter { items[$0].isVideo }
            guard !clips.isEmpty else { continue }
            var stills = ordered.filter { !items[$0].isVideo }
            let keys = Dictionary(members.map { ($0, stem(of: items[$0].name)) }, uniquingKeysWith: { first, _ in first })
            var left: [Int] = []
            for clip in clips {
                // By identifier, across names.
                guard let identifier = items[clip].identifier,
                      let at = stills.firstIndex(where: { items[$0].identifier == identifier }) else { left.append(clip); continue }
                pairs.append((stills.remove(at: at), clip))
            }
            for clip in left {
                let item = items[clip]
                guard let at = stills.firstIndex(where: {
                    matches(still: items[$0].identifier, clip: item.identifier, milliseconds: item.milliseconds,
                            sameName: keys[$0] == keys[clip])
                }) else { continue }
                pairs.append((stills.remove(at: at), clip))
            }
        }
        return pairs.sorted { $0.clip < $1.clip }
    }

    /// For each video that has a still of the same name in its folder (a likely Live Photo, known from the
    /// names alone), those stills' indices in natural order.
    static func candidates(_ names: [String]) -> [Int: [Int]] {
        var stills: [String: [Int]] = [:]
        for index in names.indices where !Photo.isVideoName(names[index]) {
            stills[folder(of: names[index]) + "/" + stem(of: names[index]), default: []].append(index)
        }
        var found: [Int: [Int]] = [:]
        for index in names.indices where Photo.isVideoName(names[index]) {
            guard let same = stills[folder(of: names[index]) + "/" + stem(of: names[index])] else { continue }
            found[index] = NaturalOrder.sorted(same) { names[$0] }
        }
        return found
    }

    /// The name each photo is sharded by (`--shard`): its own, but a likely Live Photo's video goes with
    /// its first still, so a pair is built by one shard.
    static func shardNames(_ names: [String]) -> [String] {
        var sharded = names
        for (clip, stills) in candidates(names) { sharded[clip] = names[stills[0]] }
        return sharded
    }

    private static func folder(of name: String) -> Substring {
        name.lastIndex(ofASCII: "/").map { name[..<$0] } ?? ""
    }

    /// The file name without its extension, ASCII capitals made small (so `IMG_1.HEIC` and `img_1.mov` match).
    private static func stem(of name: String) -> String {
        let file = name.lastIndex(ofASCII: "/").map { String(name[name.index(after: $0)...]) } ?? name
        let base = file.lastIndex(ofASCII: ".").map { file[..<$0] } ?? file[...]
        return String(decoding: base.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
