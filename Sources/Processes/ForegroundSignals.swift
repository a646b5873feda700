import Foundation

/// Ctrl-C and Ctrl-\ left to a child in the terminal's foreground group (`Command.Terminal
/// .foreground`): this process ignores SIGINT and SIGQUIT until `restore`, as `system(3)` does,
/// so the keys reach the editor and not the app. The child itself starts with both at default.
/// One foreground child at a time, as a terminal has one foreground job: two at once on two
/// threads would each save the other's ignoring, and leave it in place.
struct ForegroundSignals {
    private var savedInterrupt = sigaction()
    private var savedQuit = sigaction()

    static func ignoringInterrupts() -> ForegroundSignals {
        var saved = ForegroundSignals()
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigaction(SIGINT, &ignore, &saved.savedInterrupt)
        sigaction(SIGQUIT, &ignore, &saved.savedQuit)
        return saved
    }

    func restore() {
        var interrupt = savedInterrupt, quit = savedQuit
        sigaction(SIGINT, &interrupt, nil)
        sigaction(SIGQUIT, &quit, nil)
    }
}
