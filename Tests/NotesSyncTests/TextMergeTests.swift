import Foundation
@testable import NotesSync
import Testing
import TestSupport

/// The in-memory merge agrees with `git merge-file`, which sync used before (through files).
@Suite("Three-way text merge in memory")
struct TextMergeTests {
    @Test("edits of different lines merge; edits of one line on both sides overlap; equal edits are taken once")
    func cases() {
        let base = "one\ntwo\nthree\nfour\nfive\n"
        #expect(TextMerge.merge(base: base, ours: "ONE\ntwo\nthree\nfour\nfive\n", theirs: "one\ntwo\nthree\nfour\nFIVE\n")
            == "ONE\ntwo\nthree\nfour\nFIVE\n")
        #expect(TextMerge.merge(base: base, ours: "one\nTWO\nthree\nfour\nfive\n", theirs: "one\n2\nthree\nfour\nfive\n") == nil)
        #expect(TextMerge.merge(base: base, ours: "one\nTWO\nthree\nfour\nfive\n", theirs: "one\nTWO\nthree\nfour\nfive\n")
            == "one\nTWO\nthree\nfour\nfive\n")
        #expect(TextMerge.merge(base: "", ours: "a\n", theirs: "") == "a\n")
        #expect(TextMerge.merge(base: "a", ours: "a\nb", theirs: "c\na") == nil)
    }

    @Test("two Unicode forms of a line are two different lines, as bytes are")
    func unicodeForms() {
        let nfc = "caf\u{E9}\n", nfd = "cafe\u{301}\n"
        #expect(TextMerge.merge(base: "x\n", ours: nfc, theirs: nfd) == nil)
        #expect(TextMerge.merge(base: nfc, ours: nfc, theirs: nfd).map { Array($0.utf8) } == Array(nfd.utf8))
    }

    /// Where a line diff can be aligned two ways (an added line equal to its neighbour), the
    /// two diffs may choose differently, and one then sees an overlap the other does not: rare,
    /// and never two different merged texts.
    @Test("on 400 random three-way edits, merges as git merge-file does: never another text, the same verdict in 99%")
    func agreesWithGit() throws {
        let folder = try TemporaryFolder()
        var random = SplitMix64(seed: 39)
        let words = ["a\n", "b\n", "c\n", "d\n", "e\n", "f\n", "g", "é\n"]
        func edit(_ lines: [String]) -> [String] {
            var lines = lines
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let at = Int.random(in: 0...lines.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: lines.insert(words.randomElement(using: &random)!, at: at)
                case 1 where at < lines.count: lines.remove(at: at)
                default: if at < lines.count { lines[at] = words.randomElement(using: &random)! }
                }
            }
            return lines
        }
        var disagreements: [String] = [], differentTexts: [String] = []
        for round in 0..<400 {
            let base = (0..<Int.random(in: 0...8, using: &random)).map { _ in words.randomElement(using: &random)! }
            let texts = [edit(base), base, edit(base)].map { $0.joined() }
            let files = ["ours", "base", "theirs"].map { folder.url.appendingPathComponent($0).path }
            for (file, text) in zip(files, texts) { try Data(text.utf8).write(to: URL(fileURLWithPath: file)) }
            let git = try Git(directory: folder.url, machine: "test").output(["merge-file", "-p"] + files)
            let expected = git.status == 0 ? String(decoding: git.standardOutput, as: UTF8.self) : nil
            let merged = TextMerge.merge(base: texts[1], ours: texts[0], theirs: texts[2])
            let said = "round \(round): \(texts.map { $0.debugDescription }) git \(expected.debugDescription) ours \(merged.debugDescription)"
            if merged != expected { disagreements.append(said) }
            if let merged, let expected, merged != expected { differentTexts.append(said) }
        }
        #expect(differentTexts.isEmpty, "\(differentTexts.prefix(5))")
        #expect(disagreements.count <= 4, "\(disagreements.prefix(5))")
    }
}
