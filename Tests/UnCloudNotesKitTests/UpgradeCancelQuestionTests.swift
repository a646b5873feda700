import Testing
import UnCloudNotesKit

/// The one rule `store migrate` and the app's upgrade screen answer Ctrl-C's question by.
@Suite struct UpgradeCancelQuestionTests {
    @Test("y, Y or a second Ctrl-C cancel the upgrade; any other key lets it go on")
    func answers() {
        for answer: Character in ["y", "Y", "\u{03}"] { #expect(UpgradeCancelQuestion.cancels(answer), "\(answer.debugDescription)") }
        for answer: Character in ["n", "N", "q", " ", "\r", "\u{1B}", "j"] { #expect(!UpgradeCancelQuestion.cancels(answer), "\(answer.debugDescription)") }
    }
}
