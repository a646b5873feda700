import Foundation
@testable import NotesSync
import Testing
import UnCloudNotesKit
import Yams

/// Front matter is written by one writer (`FrontMatterText`, with `YAMLText`): every text reads
/// back as the note, plain texts are written as the YAML encoder wrote them before (so existing
/// mirrors' files do not change), and text in any script, emoji included, is written as it is.
@Suite("Writing front matter")
struct FrontMatterWritingTests {
    static let image = MirrorImage(identifier: UUID(), file: "images/" + String(repeating: "0f", count: 32) + ".jpg",
                                   created: Date(timeIntervalSince1970: 1_795_000_000.125), caption: "At the lake", width: 640, height: 480)

    static let titles = ["Groceries", "笔记 中文标题", "Заметка о встрече", "Café naïve", "Don't forget, really", "Party 🎉", "", "yes", "No",
                         "title: with a colon", "# not a comment", "-dash first", "trailing space ", "\"quoted\"", "12 apples", "a\nsecond line",
                         String(repeating: "long words ", count: 12), "tab\there", "Ends with a question?", "R&D (2026) / notes",
                         "Book ☕️ Idea", "Café ☕️ €5 ≠ 6", "Weekend 🎉", "Travel \u{FEFF}zero width"]

    @Test("every title reads back as the note; a plain one is written as the YAML encoder wrote it", arguments: titles)
    func readsBack(title: String) throws {
        let note = MirrorNote(identifier: UUID(), title: title, created: Date(timeIntervalSince1970: 1_700_000_000.5), modified: nil, pinned: true,
                              tags: ["work", "ключ", "读书"], images: [Self.image, MirrorImage(identifier: UUID(), file: Self.image.file, caption: "", width: 3, height: 2)],
                              body: "body\n")
        let text = MirrorNoteFile.render(note)
        #expect(try MirrorNoteFile.parse(text, path: note.path) == note, "\(text)")
        if YAMLText.scalar(title) == title || title.isEmpty {
            let encoder = YAMLEncoder()
            encoder.options.allowUnicode = true
            encoder.options.width = -1
            let encoded = MirrorNoteFile.fence + (try encoder.encode(FrontMatter(note))) + MirrorNoteFile.fence + note.body
            #expect(text == encoded, "\(text)\n-- encoder:\n\(encoded)")
        }
    }

    @Test("emoji and other scripts are written as they are, never escaped (the YAML encoder wrote 🎉 as \\U0001F389)")
    func emojiAsWritten() {
        let note = MirrorNote(identifier: UUID(), title: "Party 🎉: tonight", created: nil, modified: nil, pinned: false, tags: ["🎂", "день рождения"],
                              images: [MirrorImage(identifier: UUID(), file: Self.image.file, caption: "🎈 balloons", width: 1, height: 1)], body: "")
        let text = MirrorNoteFile.render(note)
        for word in ["Party 🎉: tonight", "🎂", "день рождения", "🎈 balloons"] { #expect(text.contains(word), "\(text)") }
        #expect(!text.contains("\\U"), "\(text)")
        #expect((try? MirrorNoteFile.parse(text, path: note.path)) == note)
    }

    @Test("random titles, tags and captions read back as written (2,000 notes)")
    func fuzz() throws {
        var random = SystemRandomNumberGenerator()
        let pieces = ["a", "Z", "é", "中", "я", "🎉", " ", ":", "#", "'", "\"", "-", ",", "?", "!", "&", "*", "[", "]", "{", "}", "|", ">", "%", "@",
                      "`", "1", "0", ".", "yes", "null", "~", "\\", "\u{301}", "\t", "\n", "true", "0x1F", "2026-11-25", "☕", "\u{FE0F}", "€", "a\u{FEFF}"]
        func text(_ count: Int) -> String { (0..<Int.random(in: 0...count, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined() }
        for _ in 0..<2_000 {
            let typed = (0..<Int.random(in: 0...3, using: &random)).map { _ in text(6).replacingOccurrences(of: ",", with: "")
                .trimmingCharacters(in: .whitespaces) }.filter { (try? TagName.checked($0)) != nil }
            let tags = try TagName.checked(typed) // as a store holds them: normalised, without repeats
            let note = MirrorNote(identifier: UUID(), title: text(12), created: nil, modified: Date(timeIntervalSince1970: 1_000), pinned: Bool.random(using: &random),
                                  tags: tags, images: [MirrorImage(identifier: UUID(), file: Self.image.file, caption: text(8),
                                                                   width: Double(Int.random(in: 0...5000, using: &random)), height: 0.5)],
                                  body: text(5))
            let written = MirrorNoteFile.render(note)
            #expect(throws: Never.self, "\(written)") { try MirrorNoteFile.parse(written, path: note.path) }
            #expect((try? MirrorNoteFile.parse(written, path: note.path)) == note, "\(written)")
        }
    }
}

@Suite("Front matter edge cases")
struct FrontMatterEdgeTests {
    @Test("invisible characters read back as written (but a leading byte-order mark)", arguments: ["\u{FEFF}a", "a\u{FEFF}", "\u{FEFF}\u{FE0F}", "x\u{FE0F}", "\u{FE0F}"])
    func invisible(title: String) throws {
        let note = MirrorNote(identifier: UUID(), title: title, created: nil, modified: nil, pinned: false, tags: [], images: [], body: "")
        let text = MirrorNoteFile.render(note)
        let back = try MirrorNoteFile.parse(text, path: note.path)
        #expect(text.contains("\\uFEFF") == title.contains("\u{FEFF}"), "a byte-order mark is written escaped: \(text)")
        // The file says it right ("\uFEFF..."); Yams' reader drops a byte-order mark at the
        // start of a value, even escaped. Known, rare (an invisible character leading a title).
        withKnownIssue("Yams drops a leading U+FEFF when it reads a value") {
            #expect(back.title.unicodeScalars.map(\.value) == title.unicodeScalars.map(\.value), "\(text)")
        } when: { title.hasPrefix("\u{FEFF}") }
    }
}
