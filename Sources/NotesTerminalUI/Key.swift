/// A key press, independent of the terminal library.
public enum Key: Equatable, Sendable {
    case character(Character)
    /// Ctrl and a letter (`control("e")` is Ctrl-E).
    case control(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown
    case enter, tab, backTab, escape, backspace, delete
    /// The terminal changed size.
    case resize
}
