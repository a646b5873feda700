/// A key press, independent of the terminal library.
public enum Key: Equatable, Sendable {
    case character(Character)
    /// Ctrl and a letter (`control("e")` is Ctrl-E).
    case control(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown
    /// Ctrl-Home, Ctrl-End: the start and end of the whole text.
    case controlHome, controlEnd
    case enter, tab, backTab, escape, backspace, delete
    /// The terminal is now this size (also sent once at the start): screens lay themselves out
    /// from this event, never from what the last frame measured.
    case resize(columns: Int, rows: Int)
}
