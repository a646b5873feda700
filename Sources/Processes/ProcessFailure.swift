import Foundation
import Subprocess

/// Why a child could not be run; its exit status is never one of these (`Outcome` says it).
public enum ProcessFailure: Error, CustomStringConvertible {
    /// The program could not be started: missing, not executable, a bad working directory.
    case cannotStart(executable: String, cause: any Error)
    /// A descriptor for the child's standard streams could not be made (`what` says which).
    case cannotPrepare(String, errno: Int32)
    /// The child's end could not be waited for.
    case cannotWait(executable: String, errno: Int32)
    /// What the child wrote to a captured stream could not be read back.
    case cannotReadCapture(executable: String, errno: Int32)

    /// Why, without the program's name, for a caller that names it in its own words: the
    /// system's reason (as `strerror` says it) where there is one.
    public var reason: String {
        switch self {
        case .cannotStart(_, let cause as SubprocessError):
            cause.underlyingError.map { String(cString: strerror($0.rawValue)) } ?? "\(cause)"
        case .cannotStart(_, let cause): "\(cause)"
        case .cannotPrepare(_, let code), .cannotWait(_, let code), .cannotReadCapture(_, let code): String(cString: strerror(code))
        }
    }

    public var description: String {
        switch self {
        case .cannotStart(let executable, _): "cannot start \(executable): \(reason)"
        case .cannotPrepare(let what, _): "cannot make \(what) for a child process: \(reason)"
        case .cannotWait(let executable, _): "cannot wait for \(executable): \(reason)"
        case .cannotReadCapture(let executable, _): "cannot read what \(executable) wrote: \(reason)"
        }
    }
}
