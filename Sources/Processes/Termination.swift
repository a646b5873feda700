import Foundation

/// How a child ended.
public enum Termination: Sendable, Equatable {
    /// Exited by itself, with this code.
    case exited(Int32)
    /// Ended by this signal.
    case signalled(Int32)

    /// The status as a shell reports it: the exit code, or 128 + the signal's number.
    public var status: Int32 {
        switch self {
        case .exited(let code): code
        case .signalled(let signal): 128 + signal
        }
    }

    /// Waits for child `pid` to end without reaping it (`WNOWAIT`): swift-subprocess reaps it
    /// when its run is released, so the id cannot be reused meanwhile.
    static func awaited(_ pid: pid_t, executable: String) throws(ProcessFailure) -> Termination {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
            guard errno == EINTR else { throw .cannotWait(executable: executable, errno: errno) }
        }
        // si_status is the exit code for CLD_EXITED, the signal's number otherwise.
        let status = info._sifields._sigchld.si_status
        return info.si_code == CLD_EXITED ? .exited(status) : .signalled(status)
    }
}
