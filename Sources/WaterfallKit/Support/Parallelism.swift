#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How much parallel work the machine can take.
enum Parallelism {
    static var available: Int { ProcessInfo.processInfo.activeProcessorCount }
}
