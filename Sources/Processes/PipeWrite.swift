import Foundation

/// Writing to a pipe whose reader may be gone without dying of SIGPIPE: the signal is blocked
/// on this thread for the write, and one raised by it is taken back before unblocking, so only
/// `EPIPE` is left, which the caller sees as `false`. (Ignoring SIGPIPE process-wide would
/// change how every command ends when its output is closed.)
public enum PipeWrite {
    /// Writes all of `data` to `descriptor`. - Returns: false when the reader went away.
    public static func all(_ data: Data, to descriptor: Int32) -> Bool {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                // Inside the loop the buffer holds at least one byte, so it has an address.
                let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        if !written {
            // The SIGPIPE this thread raised is pending while blocked: take it, so it is not
            // delivered when the mask is restored. A zero timeout returns at once without one.
            var none = timespec(tv_sec: 0, tv_nsec: 0)
            _ = sigtimedwait(&pipeSignal, nil, &none)
        }
        return written
    }
}
