/// The three-way merge of texts by lines, in memory, as `git merge-file` does it: a region
/// changed on one side takes that side's lines, one changed alike on both takes them once, and
/// regions changed differently on both sides (or changes with no unchanged line between them)
/// overlap. It runs in memory so that an encrypted mirror's texts are never written to disk to
/// be merged. Lines are compared byte for byte: two Unicode forms of a line are two lines.
enum TextMerge {
    /// `ours` and `theirs` merged against `base`; nil when their changes overlap.
    static func merge(base: String, ours: String, theirs: String) -> String? {
        let (origin, mine, yours) = (lines(base), lines(ours), lines(theirs))
        var merged: [UInt8] = []
        var (inBase, inOurs, inTheirs) = (0, 0, 0)
        for region in unchangedRegions(origin, mine, yours) {
            let baseSpan = origin[inBase..<region.base], ourSpan = mine[inOurs..<region.ours], theirSpan = yours[inTheirs..<region.theirs]
            if ourSpan.elementsEqual(theirSpan) || theirSpan.elementsEqual(baseSpan) {
                ourSpan.forEach { merged += $0 }
            } else if ourSpan.elementsEqual(baseSpan) {
                theirSpan.forEach { merged += $0 }
            } else {
                return nil
            }
            mine[region.ours..<region.ours + region.length].forEach { merged += $0 }
            (inBase, inOurs, inTheirs) = (region.base + region.length, region.ours + region.length, region.theirs + region.length)
        }
        return String(decoding: merged, as: UTF8.self)
    }

    /// A run of lines that neither side changed: where it starts in each text, and its length.
    struct Region: Equatable {
        var base: Int, ours: Int, theirs: Int, length: Int
    }

    /// The runs of base lines that both sides kept, in order, ending with an empty run at the
    /// end of all three texts (bzr's and Python's merge3 "sync regions").
    static func unchangedRegions(_ base: [[UInt8]], _ ours: [[UInt8]], _ theirs: [[UInt8]]) -> [Region] {
        let kept = (ours: matchingRuns(base, ours), theirs: matchingRuns(base, theirs))
        var regions: [Region] = []
        var (o, t) = (0, 0)
        while o < kept.ours.count, t < kept.theirs.count {
            let a = kept.ours[o], b = kept.theirs[t]
            let start = max(a.base, b.base), end = min(a.base + a.length, b.base + b.length)
            if start < end {
                regions.append(Region(base: start, ours: a.other + start - a.base, theirs: b.other + start - b.base, length: end - start))
            }
            if a.base + a.length < b.base + b.length { o += 1 } else { t += 1 }
        }
        regions.append(Region(base: base.count, ours: ours.count, theirs: theirs.count, length: 0))
        return regions
    }

    /// The runs of lines `other` kept from `base` (Myers' difference, from the standard library).
    private static func matchingRuns(_ base: [[UInt8]], _ other: [[UInt8]]) -> [(base: Int, other: Int, length: Int)] {
        var removed = Set<Int>(), inserted = Set<Int>()
        for change in other.difference(from: base) {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var runs: [(base: Int, other: Int, length: Int)] = []
        var (i, j) = (0, 0)
        while i < base.count, j < other.count {
            if removed.contains(i) {
                i += 1
            } else if inserted.contains(j) {
                j += 1
            } else {
                if let last = runs.last, last.base + last.length == i, last.other + last.length == j {
                    runs[runs.count - 1].length += 1
                } else {
                    runs.append((i, j, 1))
                }
                (i, j) = (i + 1, j + 1)
            }
        }
        return runs
    }

    /// A text's lines, each with its line feed (the last may have none), as bytes.
    private static func lines(_ text: String) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var line: [UInt8] = []
        for byte in text.utf8 {
            line.append(byte)
            if byte == UInt8(ascii: "\n") {
                lines.append(line)
                line = []
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
