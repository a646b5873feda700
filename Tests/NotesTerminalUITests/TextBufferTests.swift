import NotesTerminalUI
import Testing

/// The readline keys of text fields, on the buffer itself.
@Suite("Text fields: readline's Ctrl keys")
struct TextBufferTests {
    /// Edits a buffer holding `text`, the cursor where `|` is, and shows the result the same way.
    private func edited(_ text: String, newlines: Bool = false, _ edits: (inout TextBuffer) -> Void...) -> String {
        var buffer = TextBuffer(text.replacingOccurrences(of: "|", with: ""), allowsNewlines: newlines)
        buffer.moveTo(Array(text).firstIndex(of: "|") ?? text.count)
        edits.forEach { $0(&buffer) }
        return String(buffer.characters[..<buffer.cursor]) + "|" + String(buffer.characters[buffer.cursor...])
    }

    @Test("Ctrl-K deletes to the end of the line; at a line's end it joins the next")
    func killToEnd() {
        #expect(edited("milk, |eggs 🥚") { $0.deleteToLineEnd() } == "milk, |")
        #expect(edited("one |two\nthree", newlines: true) { $0.deleteToLineEnd() } == "one |\nthree")
        #expect(edited("one |two\nthree", newlines: true, { $0.deleteToLineEnd() }, { $0.deleteToLineEnd() }) == "one |three")
    }

    @Test("Ctrl-U deletes from the line's start to the cursor")
    func killToStart() {
        #expect(edited("笔记 ab|cd") { $0.deleteToLineStart() } == "|cd")
        #expect(edited("first\nsecond |line", newlines: true) { $0.deleteToLineStart() } == "first\n|line")
    }

    @Test("Ctrl-W deletes the word before the cursor and the spaces after it; a path goes whole")
    func killWord() {
        #expect(edited("buy milk  |now") { $0.deleteWordBackward() } == "buy |now")
        #expect(edited("buy milk  |now", { $0.deleteWordBackward() }, { $0.deleteWordBackward() }) == "|now")
        #expect(edited("|now") { $0.deleteWordBackward() } == "|now", "nothing before the cursor: nothing deleted")
        #expect(edited("~/Pictures/cat.png|") { $0.deleteWordBackward() } == "|")
        #expect(edited("one\n|two", newlines: true) { $0.deleteWordBackward() } == "one|two", "at a line's start it deletes the line break")
    }

    @Test("Ctrl-A and Ctrl-E move to the line's start and end; emoji and CJK are one character each")
    func moves() {
        #expect(edited("🇯🇵 日|本") { $0.moveToLineStart() } == "|🇯🇵 日本")
        #expect(edited("🇯🇵 日|本") { $0.moveToLineEnd() } == "🇯🇵 日本|")
        #expect(edited("a\nb|c\nd", newlines: true) { $0.moveToLineStart() } == "a\n|bc\nd")
    }
}
