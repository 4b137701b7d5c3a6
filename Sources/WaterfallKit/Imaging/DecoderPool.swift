import CImageIO
import Synchronization
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Decoder processes (cimageio_decoder.h): every C reader and decoder a build, `inspect`, `layout` or `resize`
/// runs on a photo runs in one of them, on the descriptor the build opened, so that a crash, a runaway
/// allocation or a hang costs that photo a one-line reason and never the build. One process for each thread
/// that decodes at a time, started when first needed and again after one ended badly; all stop with the pool.
public final class DecoderPool: Sendable {
    public let program: DecoderProgram
    let limits: DecoderLimits
    private let idle = Mutex<[DecoderSlot]>([])

    public convenience init(program: DecoderProgram, maxPixels: Int = HeaderReader.defaultMaxPixels) {
        self.init(program: program, limits: DecoderLimits(maxPixels: maxPixels))
    }

    init(program: DecoderProgram, limits: DecoderLimits) {
        self.program = program
        self.limits = limits
    }

    deinit {
        idle.withLock { $0.removeAll() }
    }

    /// The header of the open file and, when asked, its metadata's raw bytes.
    func read(_ file: OpenFile, metadata wanted: Bool) -> Result<(wf_header, ExifReader.RawMetadata?), DecoderFailure> {
        read([file], metadata: wanted).map { $0[0] }
    }

    /// `read` of several open files in one decoder job (at most `maximumBatch`): one round trip for them all.
    /// A failure (a crash, a time out) is the whole job's: read each file alone to learn which one did it.
    func read(_ files: [OpenFile], metadata wanted: Bool) -> Result<[(wf_header, ExifReader.RawMetadata?)], DecoderFailure> {
        withDecoder { decoder in
            var headers = [wf_header](repeating: wf_header(), count: files.count)
            var outcome = wf_decoder_outcome()
            let sources = files.map(\.descriptor)
            // One file's time for them all: a batch takes milliseconds, and one that hangs is read again alone.
            let milliseconds = limits.readMilliseconds
            guard wanted else {
                wf_decoder_read(decoder, sources, sources.count, milliseconds, &headers, nil, &outcome)
                return DecoderFailure(outcome).map { .failure($0) } ?? .success(headers.map { ($0, nil) })
            }
            let raws = ExifReader.collect(count: files.count) { metadata in
                wf_decoder_read(decoder, sources, sources.count, milliseconds, &headers, metadata, &outcome)
            }
            return DecoderFailure(outcome).map { .failure($0) } ?? .success(zip(headers, raws).map { ($0, $1) })
        }
    }

    /// The most files one job reads (WF_JOB_MAX_SOURCES).
    static let maximumBatch = 32

    /// An XMP sidecar's records (`wf_read_xmp_memory` on the open file, in a decoder process): the bytes and
    /// whether some did not fit.
    func sidecar(_ file: OpenFile) -> Result<(records: [UInt8], truncated: Bool), DecoderFailure> {
        withDecoder { decoder in
            var outcome = wf_decoder_outcome()
            var records = wf_metadata_field()
            var bytes = [UInt8](repeating: 0, count: ExifReader.recordsCapacity)
            bytes.withUnsafeMutableBufferPointer { buffer in
                records.bytes = buffer.baseAddress
                records.capacity = buffer.count
                wf_decoder_sidecar(decoder, file.descriptor, limits.readMilliseconds, &records, &outcome)
            }
            if let failure = DecoderFailure(outcome) { return .failure(failure) }
            return .success((Array(bytes[0..<records.length]), records.total > records.length))
        }
    }

    /// wf_derive_set_fd on the open file: each request's result and, when it succeeded, its encoded bytes.
    func derive(_ file: OpenFile, _ requests: [wf_derive_request], pixels: Int) -> Result<[(wf_derive_result, [UInt8])], DecoderFailure> {
        withDecoder { decoder in
            var results = [wf_derive_result](repeating: wf_derive_result(), count: requests.count)
            var outputs = [wf_encoded](repeating: wf_encoded(), count: requests.count)
            var outcome = wf_decoder_outcome()
            wf_decoder_derive(decoder, file.descriptor, requests, requests.count, limits.deriveMilliseconds(pixels: pixels),
                              &results, &outputs, &outcome)
            defer { for index in outputs.indices { wf_encoded_free(&outputs[index]) } }
            if let failure = DecoderFailure(outcome) { return .failure(failure) }
            return .success(zip(results, outputs).map { result, output in
                (result, output.bytes.map { Array(UnsafeBufferPointer(start: $0, count: output.length)) } ?? [])
            })
        }
    }

    /// The process ids of the decoders now idle, for tests that stop or kill one.
    var idleProcesses: [Int32] { idle.withLock { $0.map { wf_decoder_pid($0.decoder) }.filter { $0 > 0 } } }

    /// Starts one decoder now (a command that will decode checks early that it can), and leaves it idle.
    func start() -> DecoderFailure? {
        let started: Result<Void, DecoderFailure> = withDecoder { decoder in
            var outcome = wf_decoder_outcome()
            wf_decoder_start(decoder, &outcome)
            return DecoderFailure(outcome).map { .failure($0) } ?? .success(())
        }
        return started.failureValue
    }

    /// Runs `body` with a decoder no other thread uses meanwhile.
    func withDecoder<T>(_ body: (OpaquePointer) -> Result<T, DecoderFailure>) -> Result<T, DecoderFailure> {
        guard let slot = idle.withLock({ $0.popLast() }) ?? DecoderSlot(program: program, limits: limits) else {
            return .failure(DecoderFailure(.notStarted, "cannot start the decoder process: out of memory"))
        }
        defer { idle.withLock { $0.append(slot) } }
        return body(slot.decoder)
    }
}

/// One decoder process's handle, used by one thread at a time (the pool hands it out).
private final class DecoderSlot: @unchecked Sendable {
    let decoder: OpaquePointer

    init?(program: DecoderProgram, limits: DecoderLimits) {
        // Only what the dynamic loader may need: a decoder gets none of the build's secrets.
        var kept: [String] = []
        for name in ["LD_LIBRARY_PATH"] {
            if let value = getenv(name) { kept.append(name + "=" + String(cString: value)) }
        }
        let words = kept.map { strdup($0) }
        defer { words.forEach { free($0) } }
        var environment: [UnsafePointer<CChar>?] = words.map { UnsafePointer($0) } + [nil]
        guard let made = environment.withUnsafeMutableBufferPointer({ buffer in
            wf_decoder_new(program.path, DecoderProgram.argument, buffer.baseAddress, limits.memoryBytes)
        }) else { return nil }
        decoder = made
    }

    deinit { wf_decoder_free(decoder) }
}
