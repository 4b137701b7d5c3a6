#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A thread that runs one closure and ends: one a connection, for `SiteServer`.
enum DetachedThread {
    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts `body` on a new detached thread (with a small stack: a connection needs little); runs it
    /// here when no thread can be made.
    static func start(_ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, 512 * 1024)
        var thread = pthread_t()
        let made = pthread_create(&thread, &attributes, { pointer in
            let work = Unmanaged<Work>.fromOpaque(pointer!).takeRetainedValue()
            work.body()
            return nil
        }, work)
        if made != 0 { Unmanaged<Work>.fromOpaque(work).takeRetainedValue().body() }
    }
}
