@testable import NotesTerminalUI
import Testing
import TestSupport

@Suite("Text laid out a block at a time: the same lines from anywhere, wide characters whole")
struct TextLayoutTests {
    init() { DisplayWidth.configureLocale() }

    private func strings<Text>(_ layout: TextLayout<Text>) -> [String] {
        layout.lines(from: layout.firstLine, count: .max).map(layout.string(of:))
    }

    @Test("a wide character that would cross the edge starts the next line; none is split")
    func wideCharactersAtTheEdge() {
        #expect(strings(TextLayout("a日本日本日本", width: 8)) == ["a日本日", "本日本"])
        #expect(strings(TextLayout("日本日本", width: 3)) == ["日", "本", "日", "本"])
        #expect(strings(TextLayout(Array("ab 日本語 cd"), width: 6)) == ["ab ", "日本語", " cd"])
    }

    @Test("line breaks (LF and CRLF) end lines; a text ending with one ends with an empty line")
    func lineBreaks() {
        #expect(strings(TextLayout("one\r\ntwo\nthree\n", width: 20)) == ["one", "two", "three", ""])
        #expect(strings(TextLayout("", width: 20)) == [""])
    }

    @Test("text cut into small blocks reads the same lines forwards, backwards and from any position",
          arguments: [(21, 40), (3, 17), (8, 64), (13, 9), (5, 1), (6, 2), (7, 5), (9, 4_096)])
    func blocksAreFoundFromAnywhere(seed: UInt64, blockSize: Int) {
        var random = SplitMix64(seed: seed)
        let pieces = ["ab ", "日本", "\n", "\r\n", "xyz", " ", "\t", "é", "👨‍👩‍👧", "word ", "longerword"]
        let text = (0..<2_000).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
        let layout = TextLayout(text, width: 9, blockSize: blockSize)
        let forward = layout.lines(from: layout.firstLine, count: .max)
        var backward = [layout.lastLine]
        while let earlier = layout.line(before: backward[backward.count - 1]) { backward.append(earlier) }
        backward.reverse()
        let differing = zip(forward, backward).enumerated().first { $1.0.start != $1.1.start || $1.0.end != $1.1.end }?.offset
        let context = "\(forward.dropFirst(differing ?? 0).prefix(3).map(layout.string(of:))) read backwards: "
            + "\(backward.dropFirst(differing ?? 0).prefix(3).map(layout.string(of:)))"
        #expect(differing == nil && forward.count == backward.count, "from line \(differing ?? -1): \(context)")
        for (line, following) in zip(forward, forward.dropFirst()) {
            #expect(line.next == following.start)
            #expect(DisplayWidth.of(layout.string(of: line)) <= 9)
        }
        // A fresh layout, so every answer is found from the position alone, not from blocks seen before.
        let fresh = TextLayout(text, width: 9, blockSize: blockSize)
        var position = text.startIndex
        while position < text.endIndex {
            let line = fresh.line(containing: position)
            #expect(forward.contains { $0.start == line.start && $0.end == line.end })
            #expect(line.start <= position && position <= line.end)
            position = text.index(after: position)
        }
    }

    @Test("paragraphs shorter than a block are never cut, however long the text")
    func shortParagraphsAreNotCut() {
        var random = SplitMix64(seed: 7)
        let words = ["lorem ", "ipsum ", "日本 ", "dolor ", "a"]
        let text = (0..<400).map { _ in (0..<Int(random.next() % 6)).map { _ in words[Int(random.next() % 5)] }.joined() }
            .joined(separator: "\n")
        #expect(text.utf8.count > 4_000)
        #expect(strings(TextLayout(text, width: 9, blockSize: 40)) == strings(TextLayout(text, width: 9, blockSize: 1 << 40)))
    }

    @Test("a paragraph longer than a block is cut at the block size only, and reads whole in order")
    func longParagraphsAreCutAtBlocks() {
        let text = String(repeating: "日本", count: 200)
        let lines = strings(TextLayout(text, width: 10, blockSize: 66))
        #expect(lines.joined() == text)
        // A block of 66 bytes holds 22 wide characters: four lines of five, then a short one.
        #expect(lines.prefix(6) == ["日本日本日", "本日本日本", "日本日本日", "本日本日本", "日本", "日本日本日"])
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 10 })
    }
}
