import Crypto
import Foundation

/// The three-way merge of one note changed on both sides (docs/sync.md, "Merging"): title and
/// body merge as text, and where both changed the same part the note keeps our version and
/// theirs becomes a new note, "<title> (conflict from <machine>)"; tags, pins and images merge
/// as sets; a note deleted on one side and changed on the other is kept. Pure: texts merge in
/// memory (`TextMerge`), never through a file.
struct NoteMerge {
    /// In an encrypted mirror, the key conflict copies' identifiers are derived with (the image
    /// name key): their file names then say nothing of the text, which a plain hash of it would
    /// let the host confirm a guess of. Nil in a plain mirror.
    var identifierKey: Data?

    struct Outcome: Equatable {
        /// The note's merged file; nil when it is deleted.
        var note: MirrorNote?
        /// Their version as a new note, when the texts overlapped.
        var conflictCopy: MirrorNote?
    }

    func merge(base: MirrorNote?, ours: MirrorNote?, theirs: MirrorNote?, theirMachine: String) -> Outcome {
        guard let ours else { return Outcome(note: theirs == base ? nil : theirs) }
        guard let theirs else { return Outcome(note: ours == base ? nil : ours) }
        if ours == theirs { return Outcome(note: ours) }
        let origin = base ?? MirrorNote(identifier: ours.identifier, title: "", created: nil, modified: nil, pinned: false, tags: [], images: [],
                                        body: "")
        var merged = ours
        var overlapped = false
        merged.title = pick(origin.title, ours.title, theirs.title) { _, _, _ in nil } ?? {
            overlapped = true
            return ours.title
        }()
        merged.body = pick(origin.body, ours.body, theirs.body, merging: TextMerge.merge) ?? {
            overlapped = true
            return ours.body
        }()
        merged.created = ours.created ?? theirs.created
        merged.modified = [ours.modified, theirs.modified].compactMap { $0 }.max()
        merged.pinned = ours.pinned != origin.pinned ? ours.pinned : theirs.pinned
        merged = MirrorNote(identifier: merged.identifier, title: merged.title, created: merged.created, modified: merged.modified,
                            pinned: merged.pinned, tags: Self.mergeSets(origin.tags, ours.tags, theirs.tags), images: Self.mergeImages(origin, ours, theirs),
                            body: merged.body)
        return Outcome(note: merged, conflictCopy: overlapped ? conflictCopy(of: theirs, from: theirMachine) : nil)
    }

    /// A value changed on one side takes that side's; changed on both, `merging` tries to
    /// combine them (nil when it cannot).
    private func pick(_ base: String, _ ours: String, _ theirs: String,
                      merging: (_ base: String, _ ours: String, _ theirs: String) -> String?) -> String? {
        if ours == theirs || theirs == base { return ours }
        if ours == base { return theirs }
        return merging(base, ours, theirs)
    }

    /// Three-way set merge: what both kept, plus what either added; what either removed goes.
    static func mergeSets<Element: Hashable & Comparable>(_ base: [Element], _ ours: [Element], _ theirs: [Element]) -> [Element] {
        let (origin, mine, yours) = (Set(base), Set(ours), Set(theirs))
        return Array(origin.intersection(mine).intersection(yours).union(mine.subtracting(origin)).union(yours.subtracting(origin))).sorted()
    }

    /// Images merge as a set by identifier, in our order then theirs; an image changed on one
    /// side (caption, size) takes that side's values.
    static func mergeImages(_ base: MirrorNote, _ ours: MirrorNote, _ theirs: MirrorNote) -> [MirrorImage] {
        let kept = Set(mergeSets(base.images.map(\.identifier.uuidString), ours.images.map(\.identifier.uuidString),
                                 theirs.images.map(\.identifier.uuidString)))
        let before = Dictionary(base.images.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        let their = Dictionary(theirs.images.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        var result: [MirrorImage] = []
        for image in ours.images + theirs.images where kept.contains(image.identifier.uuidString)
            && !result.contains(where: { $0.identifier == image.identifier }) {
            let other = their[image.identifier]
            result.append(image == before[image.identifier] ? (other ?? image) : image)
        }
        return result
    }

    /// Their version as a note of its own. Its identifiers come from its content, so two
    /// machines resolving the same conflict make the same file rather than two copies.
    func conflictCopy(of theirs: MirrorNote, from machine: String) -> MirrorNote {
        let seed = "\(theirs.identifier)\u{0}\(theirs.title)\u{0}\(theirs.body)\u{0}\(machine)"
        let identifier = derivedIdentifier(seed)
        return MirrorNote(identifier: identifier, title: "\(theirs.title) (conflict from \(machine))", created: theirs.created,
                          modified: theirs.modified, pinned: theirs.pinned, tags: theirs.tags,
                          images: theirs.images.map {
                              MirrorImage(identifier: derivedIdentifier("\(identifier)\u{0}\($0.identifier)"), file: $0.file, caption: $0.caption,
                                          width: $0.width, height: $0.height)
                          },
                          body: theirs.body)
    }

    private func derivedIdentifier(_ seed: String) -> UUID {
        let digest = identifierKey.map { Array(HMAC<SHA256>.authenticationCode(for: Data(seed.utf8), using: SymmetricKey(data: $0))) }
            ?? Array(SHA256.hash(data: Data(seed.utf8)))
        var bytes = Array(digest.prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50 // a name-based UUID (version 5 layout)
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
