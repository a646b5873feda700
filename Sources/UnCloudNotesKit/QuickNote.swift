import Foundation

/// A note typed in one go, as jrnl takes one (`notes add "Groceries: milk, eggs #home"`): the
/// first line is the title, the rest the body, and each `#word` in it is a tag. The text is
/// kept as typed; the tags are found, not cut out.
public enum QuickNote {
    /// The draft of `text`; `tagging`: collect `#word`s as tags (the version has tags).
    public static func draft(_ text: String, tagging: Bool) -> NoteDraft {
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let title = String(lines.first ?? "")
        let body = lines.count > 1 ? String(lines[1]) : ""
        let tags = tagging ? Self.tags(in: text) : []
        return NoteDraft(title: title, body: body, tags: tags.isEmpty ? nil : tags)
    }

    /// The `#word`s of a text, in order, without repeats: `#` at a word's start followed by
    /// letters, digits, `-`, `_` or `/` (so a heading's `# ` and `##` are none, nor `C#`).
    public static func tags(in text: String) -> [String] {
        var found: [String] = []
        var previous: Character = " "
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            defer { previous = character }
            guard character == "#", previous.isWhitespace || previous == "(" else {
                index = text.index(after: index)
                continue
            }
            let start = text.index(after: index)
            let end = text[start...].firstIndex { !($0.isLetter || $0.isNumber || "-_/".contains($0)) } ?? text.endIndex
            let word = text[start..<end].trimmingCharacters(in: CharacterSet(charactersIn: "-_/"))
            // A #word that is no valid tag name stays text in the note, as typed.
            if let name = try? TagName.checked(word), !found.contains(name) { found.append(name) }
            index = end > start ? end : start
        }
        return found
    }
}
