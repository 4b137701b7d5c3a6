/// Many files read at once: `inspect` reads its files in batches, a decoder job each, since a job's round
/// trip to the decoder process costs more than reading a header.
extension MediaReader {
    /// What a batch asks of the disk for each file before any is read: where headers and metadata sit in
    /// nearly every photo, so that a cold batch waits for the disk about once, not once a file.
    static let readAhead = 64 * 1024

    /// Each path's header and, with `facts`, what its metadata says, in order: the photos among them in one
    /// decoder job (at most `DecoderPool.maximumBatch`), videos and what fails to open or sniff alone (a lone
    /// photo too). When
    /// the job fails (a decoder crash, a time out), each photo is read again alone, so the file that did it
    /// costs only itself.
    func read(paths: [String], facts: Bool) -> [Result<(ImageHeader, PhotoFacts), ImageReadError>] {
        var results = [Result<(ImageHeader, PhotoFacts), ImageReadError>?](repeating: nil, count: paths.count)
        var photos: [(index: Int, file: OpenFile, sniffed: SniffedFormat)] = []
        let opened = paths.map { try? OpenFile.open($0) }
        for file in opened { file?.willRead(upTo: Self.readAhead) }
        for (index, path) in paths.enumerated() {
            guard let file = opened[index] else {
                results[index] = read(path: path, facts: facts)  // (says why, as a single read does)
                continue
            }
            switch sniff(file) {
            case .failure(let error): results[index] = .failure(error)
            case .success(let sniffed) where sniffed.isVideo: results[index] = read(file, sniffed: sniffed, facts: facts)
            case .success(let sniffed): photos.append((index, file, sniffed))
            }
        }
        if photos.count > 1, case .success(let answers) = decoders.read(photos.map(\.file), metadata: facts) {
            for (photo, (raw, metadata)) in zip(photos, answers) {
                results[photo.index] = images.interpret(raw).map { ($0, Self.facts(raw, metadata)) }
            }
        } else {
            for photo in photos { results[photo.index] = read(photo.file, sniffed: photo.sniffed, facts: facts) }
        }
        return results.map { $0! }
    }
}

extension HeaderResult {
    /// `paths` read in batches (`MediaReader.read(paths:facts:)`), spread over `jobs` threads, in order.
    static func read(_ paths: [String], with reader: MediaReader, facts: Bool, jobs: Int) -> [HeaderResult] {
        let size = max(1, min(DecoderPool.maximumBatch, (paths.count + jobs - 1) / max(jobs, 1)))
        let batches = stride(from: 0, to: paths.count, by: size).map { Array(paths[$0..<min($0 + size, paths.count)]) }
        return batches.parallelMap(jobs: jobs) { batch in
            zip(batch, reader.read(paths: batch, facts: facts)).map { path, read in
                var result = HeaderResult(path: path, header: read.map(\.0))
                if facts { result.facts = try? read.get().1 }
                return result
            }
        }.flatMap { $0 }
    }
}
