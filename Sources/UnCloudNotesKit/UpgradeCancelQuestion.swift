/// The question Ctrl-C asks while a store is upgraded, in `store migrate` at a terminal and on the
/// app's upgrade screen: one wording and one rule for the answer, so both behave alike.
public enum UpgradeCancelQuestion {
    /// The question, answered with one key.
    public static let text = "Cancel the upgrade? y/n"
    /// The key that asks it, as the hint names it.
    public static let hint = "Ctrl-C cancel the upgrade"

    /// Whether the answer cancels: y, or Ctrl-C again (a second Ctrl-C means yes); any other key
    /// lets the upgrade go on.
    public static func cancels(_ answer: Character) -> Bool {
        answer == "y" || answer == "Y" || answer == "\u{03}"
    }
}
