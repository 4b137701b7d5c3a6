#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Runs work on a new thread with a small stack, as pages may be rendered on: 512 KiB is what secondary
/// threads get on macOS (and Swift concurrency's threads there), against the main thread's 8 MiB.
enum SmallStackThread {
    static let stackSize = 512 << 10

    static func run<Result>(stackSize: Int = stackSize, _ work: @escaping () -> Result) -> Result {
        var result: Result?
        let job = Job { result = work() }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        precondition(pthread_attr_setstacksize(&attributes, stackSize) == 0, "stack size \(stackSize)")
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let started = pthread_create(&thread, &attributes, { argument in
            Unmanaged<Job>.fromOpaque(argument!).takeUnretainedValue().work()
            return nil
        }, Unmanaged.passUnretained(job).toOpaque())
        precondition(started == 0, "pthread_create: \(started)")
        #if canImport(Glibc)
        pthread_join(thread, nil)
        #else
        pthread_join(thread!, nil)
        #endif
        return result!
    }

    private final class Job: @unchecked Sendable {
        let work: () -> Void
        init(_ work: @escaping () -> Void) { self.work = work }
    }
}
