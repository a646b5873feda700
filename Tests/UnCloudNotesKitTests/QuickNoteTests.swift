import Testing
import UnCloudNotesKit

/// A note typed in one go, as jrnl takes one: first line the title, `#word`s tags.
@Suite struct QuickNoteTests {
    @Test("the first line is the title, the rest the body; the text is kept as typed")
    func titleAndBody() {
        let draft = QuickNote.draft("Groceries: milk, eggs\nand bread #home\nthen #Work, #home again", tagging: true)
        #expect(draft.title == "Groceries: milk, eggs")
        #expect(draft.body == "and bread #home\nthen #Work, #home again")
        #expect(draft.tags == ["home", "Work"])
        #expect(QuickNote.draft("One line", tagging: true) == NoteDraft(title: "One line", body: ""))
        #expect(QuickNote.draft("Plan #work", tagging: false).tags == nil, "before v5 no tags are made")
    }

    @Test("what is no tag: a heading's '# ', '##', C#, a lone #, an e-mail's or URL's #", arguments: [
        "# Heading", "## Sub", "I like C# a lot", "a # b", "see http://x.org/#anchor", "mail me@x.org#", "#", "(#)",
    ])
    func notTags(text: String) {
        #expect(QuickNote.tags(in: text).isEmpty, "\(QuickNote.tags(in: text))")
    }

    @Test("tags in their stored form: composed, trimmed of trailing punctuation", arguments: [
        ("#cafe\u{301}.", ["caf\u{E9}"]), ("(#work) and #2026-goals!", ["work", "2026-goals"]), ("#a/b #a/b", ["a/b"]),
    ])
    func tagForms(text: String, tags: [String]) {
        #expect(QuickNote.tags(in: text).map { Array($0.unicodeScalars) } == tags.map { Array($0.unicodeScalars) })
    }
}
