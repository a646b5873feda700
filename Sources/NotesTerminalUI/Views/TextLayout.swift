/// Text a `TextLayout` wraps: characters at positions that also have a number (an offset from the
/// start), so the layout can find where a block starts from any position without reading the
/// text before it.
protocol LayoutText: BidirectionalCollection where Element == Character, Index: Hashable {
    /// The position's distance from the start, in the text's own units (UTF-8 bytes of a
    /// `String`, characters of an array).
    func offset(of position: Index) -> Int
    /// The start of the character at `offset` (the end for an offset at or past it).
    func position(atOrBefore offset: Int) -> Index
}

extension String: LayoutText {
    func offset(of position: Index) -> Int {
        utf8.distance(from: startIndex, to: position)
    }

    func position(atOrBefore offset: Int) -> Index {
        guard offset < utf8.count else { return endIndex }
        let inside = utf8.index(startIndex, offsetBy: max(0, offset))
        // String rounds an index inside a character down to that character's start.
        return index(before: index(after: inside))
    }
}

extension Array: LayoutText where Element == Character {
    func offset(of position: Int) -> Int { position }

    func position(atOrBefore offset: Int) -> Int { Swift.min(Swift.max(0, offset), count) }
}

/// Text wrapped to a width in terminal columns, laid out lazily a block at a time, so showing a
/// screenful of a 10 MB note measures a screenful and the blocks it lies in, never the whole text.
///
/// Lines are wrapped as `TextWrapper` describes (by `DisplayWidth`, at spaces when possible, tabs
/// to their stops). A block is a paragraph (the text between line breaks, `\n` or `\r\n`); a
/// paragraph that runs on past `blockSize` offset units without a break is also cut at the
/// multiples of `blockSize` (where a cut falls depends only on the text just before it). So the
/// line holding any position is found by wrapping the one block around it, and only a paragraph
/// longer than a block shows a line that ends early where a block is cut. Blocks laid out are
/// kept, so scrolling back and forth measures nothing again.
final class TextLayout<Text: LayoutText> {
    /// One screen line: the characters from `start` to `end`, and where the next line starts
    /// (nil on the last line of the text).
    struct Line: Equatable {
        let start: Text.Index
        let end: Text.Index
        let next: Text.Index?
        /// The start of the line's block, and the line's place in it.
        let block: Text.Index
        let number: Int
    }

    let text: Text
    let width: Int
    let blockSize: Int
    /// Characters measured so far (`DisplayWidth`), which tests hold to what the screen shows.
    private(set) var measuredCharacters = 0
    private var blocks: [Text.Index: [Line]] = [:]
    /// Blocks kept at most (a block is up to `blockSize` long): scrolling through a whole 10 MB
    /// note keeps a few screens' worth, not its every line.
    private static var keptBlocks: Int { 64 }

    /// Paragraphs longer than this (in offset units) are cut into blocks: long enough that few
    /// real paragraphs are (8 KB, some 100 lines), short enough that laying one out costs well
    /// under a millisecond.
    static var defaultBlockSize: Int { 8_192 }

    /// - Parameter blockSize: `defaultBlockSize` unless a test needs small blocks.
    init(_ text: Text, width: Int, blockSize: Int? = nil) {
        self.text = text
        self.width = max(1, width)
        self.blockSize = max(1, blockSize ?? Self.defaultBlockSize)
    }

    // MARK: Lines

    /// The line holding `position`; a position where a line wraps belongs to the line it starts.
    func line(containing position: Text.Index) -> Line {
        let lines = lines(ofBlockAt: blockStart(of: position))
        return lines.last { $0.start <= position } ?? lines[0]
    }

    func line(after line: Line) -> Line? {
        let lines = lines(ofBlockAt: line.block)
        if line.number + 1 < lines.count { return lines[line.number + 1] }
        return line.next.map { self.lines(ofBlockAt: $0)[0] }
    }

    func line(before line: Line) -> Line? {
        if line.number > 0 { return lines(ofBlockAt: line.block)[line.number - 1] }
        guard line.block > text.startIndex else { return nil }
        return lines(ofBlockAt: blockStart(of: text.index(before: line.block))).last
    }

    /// The line `steps` lines below (above, when negative) `line`, or the last (first) one.
    func line(_ line: Line, movedBy steps: Int) -> Line {
        var moved = line
        for _ in 0..<abs(steps) {
            guard let next = steps < 0 ? self.line(before: moved) : self.line(after: moved) else { break }
            moved = next
        }
        return moved
    }

    /// Up to `count` lines from `first` down.
    func lines(from first: Line, count: Int) -> [Line] {
        var lines: [Line] = []
        var line: Line? = first
        while let current = line, lines.count < count {
            lines.append(current)
            line = self.line(after: current)
        }
        return lines
    }

    /// The first and last lines of the text.
    var firstLine: Line { line(containing: text.startIndex) }
    var lastLine: Line { line(containing: text.endIndex) }

    /// A screenful of `rows` lines from the line holding `top`, pulled up when the text ends
    /// before the screen does, so the last screenful is always full.
    func screenful(from top: Text.Index, rows: Int) -> Screenful {
        let rows = max(1, rows)
        var first = line(containing: top)
        var lines = lines(from: first, count: rows + 1)
        while lines.count < rows, let earlier = line(before: first) {
            first = earlier
            lines.insert(earlier, at: 0)
        }
        return Screenful(lines: Array(lines.prefix(rows)), moreAbove: first.start > text.startIndex, moreBelow: lines.count > rows)
    }

    /// Lines shown on a screen, and whether the text goes on above or below them.
    struct Screenful {
        let lines: [Line]
        let moreAbove: Bool
        let moreBelow: Bool
    }

    /// What a line shows.
    func string(of line: Line) -> String {
        String(text[line.start..<line.end])
    }

    /// Columns from the start of `line` to `position` in it (a cursor's column).
    func column(of position: Text.Index, in line: Line) -> Int {
        DisplayWidth.of(String(text[line.start..<min(max(position, line.start), line.end)]))
    }

    /// The position in `line` at `column`, or its end when the line is shorter (moving a cursor up and down).
    func position(atColumn column: Int, in line: Line) -> Text.Index {
        var columns = 0
        var position = line.start
        while position < line.end {
            let next = columns + DisplayWidth.advance(of: text[position], atColumn: columns)
            if next > column { break }
            columns = next
            position = text.index(after: position)
        }
        return position
    }

    // MARK: Blocks

    /// Where a block may be cut near the multiple `offset` of the block size: the first
    /// character starting at or after it.
    private func candidate(_ offset: Int) -> Text.Index {
        let position = text.position(atOrBefore: offset)
        return position < text.endIndex && text.offset(of: position) < offset ? text.index(after: position) : position
    }

    /// Whether a character in `range` is a line break.
    private func holdsLineBreak(_ range: Range<Text.Index>) -> Bool {
        text[range].contains(where: isLineBreak)
    }

    /// Whether a candidate is a cut: no line break lies between the previous candidate and it, and
    /// it is no line break or the text's end itself (a block there ends as a paragraph does).
    private func isCut(_ position: Text.Index, after previous: Text.Index) -> Bool {
        position < text.endIndex && !isLineBreak(text[position]) && !holdsLineBreak(previous..<position)
    }

    /// Where the block holding `position` starts: after the last line break before it, or at the
    /// last cut before it (or the text's start), reading back at most about two block sizes.
    private func blockStart(of position: Text.Index) -> Text.Index {
        let last = candidate(text.offset(of: position) / blockSize * blockSize)
        guard last > text.startIndex else { return lineBreakStart(in: text.startIndex..<position) ?? text.startIndex }
        // The candidate before `last`: that of the multiple below the first one rounding to `last`.
        let firstMultiple = (text.offset(of: text.index(before: last)) / blockSize + 1) * blockSize
        let previous = candidate(firstMultiple - blockSize)
        if let afterBreak = lineBreakStart(in: previous..<position) { return afterBreak }
        return isCut(last, after: previous) ? last : blockStart(of: text.index(before: last))
    }

    /// The position after the last line break in `range`, if any.
    private func lineBreakStart(in range: Range<Text.Index>) -> Text.Index? {
        var scanned = range.upperBound
        while scanned > range.lowerBound {
            let before = text.index(before: scanned)
            if isLineBreak(text[before]) { return scanned }
            scanned = before
        }
        return nil
    }

    /// Where the block starting at `start` ends: at its line break, at a cut, or at the text's end.
    private func blockEnd(from start: Text.Index) -> Text.Index {
        var multiple = (text.offset(of: start) / blockSize + 1) * blockSize
        var previous = candidate(multiple - blockSize)
        var next = candidate(multiple)
        var position = start
        while position < text.endIndex {
            if position == next {
                // Between `previous` and `start` lies no line break but the one ending the block before, if any.
                if isCut(next, after: previous) { return position }
                previous = next
                while next <= position {
                    multiple += blockSize
                    next = candidate(multiple)
                }
            }
            if isLineBreak(text[position]) { return position }
            position = text.index(after: position)
        }
        return text.endIndex
    }

    /// The wrapped lines of the block starting at `start`, laid out once.
    private func lines(ofBlockAt start: Text.Index) -> [Line] {
        if let known = blocks[start] { return known }
        let end = blockEnd(from: start)
        let next: Text.Index? = end == text.endIndex ? nil : (isLineBreak(text[end]) ? text.index(after: end) : end)
        var lines: [Line] = []
        var lineStart = start
        var position = start
        var columns = 0
        var lastSpace: Text.Index?
        while position < end {
            let character = text[position]
            let characterWidth = DisplayWidth.advance(of: character, atColumn: columns)
            measuredCharacters += 1
            if columns + characterWidth > width, position > lineStart {
                let breakAt = lastSpace.map(text.index(after:)) ?? position
                lines.append(Line(start: lineStart, end: breakAt, next: breakAt, block: start, number: lines.count))
                lineStart = breakAt
                position = breakAt
                columns = 0
                lastSpace = nil
                continue
            }
            if character == " " { lastSpace = position }
            columns += characterWidth
            position = text.index(after: position)
        }
        lines.append(Line(start: lineStart, end: end, next: next, block: start, number: lines.count))
        if blocks.count >= Self.keptBlocks { blocks.removeAll(keepingCapacity: true) }
        blocks[start] = lines
        return lines
    }
}

/// Whether a character ends a line: LF, or CR LF (one character in Swift).
private func isLineBreak(_ character: Character) -> Bool {
    character == "\n" || character == "\r\n"
}
