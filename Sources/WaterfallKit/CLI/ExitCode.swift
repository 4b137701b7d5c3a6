/// The program's exit statuses (sysexits.h for usage).
public enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 64
}
