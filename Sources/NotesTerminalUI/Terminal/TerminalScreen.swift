import CTerminal
import Foundation

/// Why the full-screen app cannot start.
public struct TerminalUnavailable: Error, CustomStringConvertible {
    public let description: String
}

/// The real terminal, through ncurses: copies finished cell buffers to the screen and reads keys.
/// Everything else (state, layout, drawing) happens in cell buffers, without a terminal.
public final class TerminalScreen {
    public let colors: ColorSupport
    /// Said once when the app starts: the terminal type used is not `TERM`'s (see `TerminalType`).
    public private(set) var notice: String?
    private var palette: ColorPairs
    private let keyCodes: [Int32: Key]
    /// ncurses' code for a size change, answered with the new size.
    private let resizeCode: Int32
    private var running = true
    /// How pictures reach the terminal (tmux passthrough); set once detection chose.
    public var graphics: PreviewGraphics = .symbols
    private lazy var pictures = PicturesOnScreen(cellsStayInPlace: cellsStayInPlace)
    /// Set while the terminal's answers to the queries may still arrive.
    private var lateReplies: LateReplyFilter?
    /// Keys read along with an Escape that turned out not to start a reply, handed on first.
    private var keysDue: [Key] = []

    /// Whether ncurses leaves every cell where it is (`StillCellsTerminfo`): a sixel or iTerm2
    /// picture is then drawn again only when something is drawn over it.
    public let cellsStayInPlace: Bool

    /// Starts full-screen mode; refuses without a terminal on stdin and stdout, or with TERM=dumb.
    /// - Parameter keepingCellsInPlace: pictures will be pixels in cells (sixel, iTerm2): ncurses
    ///   is started so that it never scrolls rows or shifts characters, when it can be.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment, keepingCellsInPlace: Bool = false) throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalUnavailable(description: "no terminal: the full-screen app needs one on stdin and stdout; use the scriptable commands instead (uncloudnotes notes --help)")
        }
        guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else {
            throw TerminalUnavailable(description: "TERM is \(environment["TERM"].map { "\"\($0)\"" } ?? "unset"): the full-screen app needs a real terminal; use the scriptable commands instead (uncloudnotes notes --help)")
        }
        let type = try TerminalType.choose(for: environment) { cterminal_has_terminfo($0) == 1 }
        let still = keepingCellsInPlace ? StillCellsTerminfo.compile(basedOn: type.name) : nil
        if let still {
            // Read when ncurses starts, then gone: children (the editor) see the usual TERMINFO.
            let saved = getenv("TERMINFO").map { String(cString: $0) }
            setenv("TERMINFO", still.folder.path, 1)
            defer {
                if let saved { setenv("TERMINFO", saved, 1) } else { unsetenv("TERMINFO") }
                // A temporary terminfo folder of ours; one left behind in the temporary directory is harmless.
                try? FileManager.default.removeItem(at: still.folder)
            }
            cellsStayInPlace = cterminal_start(still.name) == 0
        } else {
            cellsStayInPlace = false
        }
        if cellsStayInPlace {
            cterminal_no_character_shifts()
        } else {
            guard cterminal_start(type.name) == 0 else {
                throw TerminalUnavailable(description: "cannot start the terminal (TERM=\(term)); use the scriptable commands instead (uncloudnotes notes --help)")
            }
        }
        notice = type.notice
        colors = ColorSupport(colorCount: Int(cterminal_colors()), environment: environment)
        palette = ColorPairs(support: colors, maxPairs: Int(cterminal_max_pairs()))
        var codes: [Int32: Key] = [:]
        let names: [(String, Key)] = [("up", .up), ("down", .down), ("left", .left), ("right", .right), ("home", .home),
                                      ("end", .end), ("pageup", .pageUp), ("pagedown", .pageDown),
                                      ("backspace", .backspace), ("delete", .delete), ("enter", .enter),
                                      ("btab", .backTab), ("controlhome", .controlHome), ("controlend", .controlEnd)]
        for (name, key) in names {
            let code = cterminal_key_code(name)
            if code >= 0 { codes[code] = key }
        }
        keyCodes = codes
        resizeCode = cterminal_key_code("resize")
        Self.restoreOnSignals()
    }

    deinit { stop() }

    /// Restores the terminal. Safe to call more than once.
    public func stop() {
        guard running else { return }
        running = false
        // Nothing of the app stays on screen: kitty pictures are deleted, cells holding pixels
        // repainted blank (a terminal without an alternate screen would keep them).
        if pictures.hasPicturesInCells {
            cterminal_clear()
            cterminal_repaint_rows(0, cterminal_rows())
            cterminal_refresh()
        }
        forgetPictures()
        cterminal_stop()
    }

    public var size: (rows: Int, columns: Int) {
        (Int(cterminal_rows()), Int(cterminal_columns()))
    }

    /// The next key; nil when `timeoutMilliseconds` passes first. Ctrl-Z never arrives as a key:
    /// it suspends the app to the shell (raw mode turns it into a character, not SIGTSTP), and
    /// after `fg` comes back as a `resize`, so every screen is drawn again, at the size it is now.
    public func readKey(timeoutMilliseconds: Int32 = -1) -> Key? {
        if !keysDue.isEmpty { return keysDue.removeFirst() }
        guard var filter = lateReplies else { return readTerminalKey(timeoutMilliseconds: timeoutMilliseconds) }
        defer { lateReplies = filter.isDone && !filter.isHolding ? nil : filter }
        while true {
            // A reply arrives in one piece: what follows its Escape is there at once.
            let key = readTerminalKey(timeoutMilliseconds: filter.isHolding ? Self.replyGapMilliseconds : timeoutMilliseconds)
            let keys: [Key]
            if let key {
                keys = filter.accept(key)
            } else if filter.isHolding {
                keys = filter.release()
            } else {
                return nil
            }
            if let first = keys.first {
                keysDue += keys.dropFirst()
                return first
            }
        }
    }

    /// Replies to the queries may still come: they are kept out of the keys (`LateReplyFilter`).
    /// Called when detection stopped waiting before the terminal answered.
    public func expectLateReplies() {
        lateReplies = LateReplyFilter()
    }

    /// How long an Escape is held for the rest of a reply.
    private static let replyGapMilliseconds: Int32 = 25

    private func readTerminalKey(timeoutMilliseconds: Int32) -> Key? {
        var value: UInt32 = 0
        switch cterminal_read_key(timeoutMilliseconds, &value) {
        case 1:
            if Int32(value) == resizeCode {
                // The terminal may have moved or cut the pictures: all are drawn again.
                forgetPictures()
                cterminal_repaint_rows(0, cterminal_rows())
                return .resize(columns: size.columns, rows: size.rows)
            }
            return keyCodes[Int32(value)]
        case 0:
            let key = Self.key(forCharacter: value)
            guard key == .control("z") else { return key }
            forgetPictures()
            cterminal_stop_job()
            return .resize(columns: size.columns, rows: size.rows)
        default:
            return nil
        }
    }

    static func key(forCharacter value: UInt32) -> Key? {
        switch value {
        case 0x0D, 0x0A: return .enter
        case 0x09: return .tab
        case 0x1B: return .escape
        case 0x7F, 0x08: return .backspace
        case 0x01...0x1A: return .control(Character(Unicode.Scalar(value + 0x60)!)) // a to z: always a scalar
        default: return Unicode.Scalar(value).map { .character(Character($0)) }
        }
    }

    /// Copies a buffer to the screen. Each character is placed at its own column, so a character
    /// whose width the terminal measures differently cannot shift the rest of the line.
    public func draw(_ buffer: CellBuffer) {
        cterminal_clear()
        for row in 0..<buffer.height {
            for column in 0..<buffer.width {
                let cell = buffer[row, column]
                guard case .character(let character) = cell.content else { continue }
                let scalars = character.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
                let pair = palette.pair(foreground: cell.foreground, background: cell.background)
                scalars.withUnsafeBufferPointer { text in
                    cterminal_put(Int32(row), Int32(column), text.baseAddress, Int32(text.count),
                                  cell.style.contains(.bold) ? 1 : 0, cell.style.contains(.reverse) ? 1 : 0,
                                  cell.style.contains(.dim) ? 1 : 0, cell.style.contains(.underline) ? 1 : 0, Int32(pair))
                }
            }
        }
        if cellsStayInPlace {
            for cell in PicturesOnScreen.guardCells(of: buffer) {
                var noBreakSpace = wchar_t(0xA0)
                cterminal_put(Int32(cell.row), Int32(cell.column), &noBreakSpace, 1, 0, 0, 0, 0, 0)
            }
        }
        let update = pictures.update(to: buffer)
        for picture in update.deletions { write(PictureSequences.delete(picture, passthrough: graphics.passthrough)) }
        for rows in update.repaintRows { cterminal_repaint_rows(Int32(rows.lowerBound), Int32(rows.count)) }
        cterminal_refresh()
        for placed in update.placements { write(PictureSequences.place(placed, passthrough: graphics.passthrough)) }
    }

    /// Deletes the kitty pictures shown and forgets all, for the next frame to draw them again
    /// (after a resize, or when the terminal is handed over or left).
    private func forgetPictures() {
        for picture in pictures.forgetAll() { write(PictureSequences.delete(picture, passthrough: graphics.passthrough)) }
    }

    private func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cterminal_write($0.baseAddress, buffer.count) }
        }
    }

    /// Leaves full-screen mode while `body` runs (an editor), then comes back, discarding what
    /// arrived meanwhile, including the terminal's replies to the child's queries, which can trail
    /// in for a moment after it exits.
    public func suspended<T>(_ body: () throws -> T) rethrows -> T {
        forgetPictures()
        cterminal_suspend()
        defer {
            cterminal_resume()
            var discarded = 0
            while discarded < 64, readKey(timeoutMilliseconds: 50) != nil { discarded += 1 }
        }
        return try body()
    }

    /// From now on SIGTERM and SIGHUP (a closed terminal, a shutdown) wait for the loop, which
    /// asks `terminationSignal` after every key or timeout, so that typed text can be kept first;
    /// a busy loop is ended anyway after 5 seconds (repeated signals are ignored till then).
    public func deferTermination() {
        cterminal_defer_termination()
    }

    /// The SIGTERM or SIGHUP received since `deferTermination()`; nil when none.
    public var terminationSignal: Int32? {
        let number = cterminal_termination_signal()
        return number == 0 ? nil : number
    }

    /// SIGTERM, SIGHUP and SIGQUIT restore the terminal before the process ends. (Ctrl-C arrives
    /// as a key in raw mode, and quits through the app.)
    /// They are unblocked too: a parent may have left them blocked (inherited across exec), and a
    /// closed terminal's SIGHUP must end the app rather than leave it waiting on a dead terminal.
    private static func restoreOnSignals() {
        var handled = sigset_t()
        sigemptyset(&handled)
        for signalNumber in [SIGTERM, SIGHUP, SIGQUIT] {
            sigaddset(&handled, signalNumber)
            signal(signalNumber) { number in
                cterminal_stop()
                _exit(128 + number)
            }
        }
        sigprocmask(SIG_UNBLOCK, &handled, nil)
    }
}
