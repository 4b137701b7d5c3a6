#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif


