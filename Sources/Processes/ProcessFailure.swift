import Foundation

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

    public var description: String {
        switch self {
        case .cannotStart(let executable, let cause): "cannot start \(executable): \(cause)"
        case .cannotPrepare(let what, let code): "cannot make \(what) for a child process: \(String(cString: strerror(code)))"
        case .cannotWait(let executable, let code): "cannot wait for \(executable): \(String(cString: strerror(code)))"
        case .cannotReadCapture(let executable, let code): "cannot read what \(executable) wrote: \(String(cString: strerror(code)))"
        }
    }
}
