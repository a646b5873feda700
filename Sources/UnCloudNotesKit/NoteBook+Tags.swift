import Foundation
import ManagedStore

/// What `renameTag` did, with how many notes the tag was on.
public enum TagRename: Equatable, Sendable {
    /// The new name is the old one (as stored): nothing changed.
    case unchanged(notes: Int)
    case renamed(notes: Int)
    /// A tag of the new name existed: the two are one tag now.
    case merged(notes: Int)

    public var notes: Int {
        switch self {
        case .unchanged(let notes), .renamed(let notes), .merged(let notes): notes
        }
    }
}

/// A tag and how many notes have it, as `notes tags` and the screens' tag picker list them.
public struct TagCount: Equatable, Sendable {
    public var name: String
    public var count: Int

    public init(name: String, count: Int) {
        self.name = name
        self.count = count
    }
}

/// The rule of a tag name, in one place: trimmed, not empty, no comma (the separator of the
/// editor's tags field) and no control character, in Unicode's composed form (NFC), without the
/// `#` people write before a tag (`#work` is the tag `work`, as rows show it). Names are
/// matched exactly: `café` typed as `e` and a combining accent is the same tag as `café`
/// typed with `é`, on every machine a sync reaches.
public enum TagName {
    /// The name as stored, or `.badTagName`.
    public static func checked(_ name: String) throws(NoteBookError) -> String {
        let canonical = stored(name)
        guard !canonical.isEmpty, !canonical.contains(","),
              !canonical.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw .badTagName(name)
        }
        return canonical
    }

    /// The form a name is stored and matched in, unchecked: trimmed, NFC, no leading `#`.
    static func stored(_ name: String) -> String {
        // ASCII text is its own NFC: only the trimming applies (an import checks every note's tags).
        let composed = name.utf8.allSatisfy { $0 < 0x80 } ? name : name.precomposedStringWithCanonicalMapping
        // Every leading '#' and space, so that the form of a form is itself ("# #a" is "a").
        let start = composed.unicodeScalars.firstIndex { $0 != "#" && !CharacterSet.whitespaces.contains($0) } ?? composed.unicodeScalars.endIndex
        return String(composed.unicodeScalars[start...]).trimmingCharacters(in: .whitespaces)
    }

    /// The tag a search names when it is one word starting with `#` (`#work`); nil otherwise.
    static func named(bySearch search: String) -> String? {
        guard search.hasPrefix("#"), !search.contains(where: \.isWhitespace) else { return nil }
        let name = stored(search)
        return name.isEmpty ? nil : name
    }

    /// Checked names without repeats, in the order given.
    public static func checked(_ names: [String]) throws(NoteBookError) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for name in names {
            let checked = try checked(name)
            if seen.insert(checked).inserted { result.append(checked) }
        }
        return result
    }

    /// The names of the editor's tags field: separated by commas, empty pieces ignored.
    public static func parseField(_ text: String) throws(NoteBookError) -> [String] {
        try checked(text.split(separator: ",").map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
    }

    /// The tags as the editor's field shows them.
    public static func field(_ names: [String]) -> String { names.joined(separator: ", ") }
}

/// Tags (v5): a many-to-many between notes and `Tag` objects of unique names. A tag no note has
/// any more is deleted with the change that left it empty, so `notes tags` lists only tags in use.
extension NoteBook {
    /// Every tag with its number of notes, by name.
    public func tags() throws(NoteBookError) -> [TagCount] {
        try capabilities.require(.tags)
        var tags: [TagCount] = []
        do {
            var read = RowProperties()
            let name = read.text("name")
            let count = read.add(.count("notes")) { Int(clamping: $0?.integerValue ?? 0) }
            let request = PropertyFetchRequest(entityName: Self.tagEntity, properties: read.properties, sortDescriptors: [SortDescriptor("name")])
            try context.forEachRow(of: request) { row in
                tags.append(TagCount(name: name.value(in: row), count: count.value(in: row)))
            }
        } catch {
            throw .wrapping(error)
        }
        return tags
    }

    /// Adds and removes tags of a note (adding first); tags made as needed, emptied ones deleted.
    public func changeTags(of id: NoteID, adding: [String] = [], removing: [String] = []) throws(NoteBookError) {
        try capabilities.require(.tags)
        let adding = try TagName.checked(adding)
        let removing = try TagName.checked(removing)
        let note = try object(for: id)
        let current = note.objects(forKey: "tags").compactMap { $0.value(forKey: "name")?.stringValue }
        let wanted = (current + adding.filter { !current.contains($0) }).filter { !removing.contains($0) }
        guard Set(wanted) != Set(current) else { return }
        try changing {
            try replaceTags(of: note, with: wanted)
            noteChanged(note)
        }
    }

    /// Renames a tag; into a name another tag has, the two merge (its notes get that tag).
    /// - Returns: what happened, with how many notes the tag was on.
    @discardableResult
    public func renameTag(_ old: String, to new: String) throws(NoteBookError) -> TagRename {
        try capabilities.require(.tags)
        let old = try TagName.checked(old)
        let new = try TagName.checked(new)
        let found: (tag: ManagedObject?, target: ManagedObject?)
        do {
            found = (try existingTag(named: old), try existingTag(named: new))
        } catch {
            throw .wrapping(error)
        }
        guard let tag = found.tag else { throw .noSuchTag(old) }
        let notes = tag.objects(forKey: "notes").count
        guard old != new else { return .unchanged(notes: notes) }
        try changing { move(tag, to: new, merging: found.target, datingNotes: true) }
        return found.target == nil ? .renamed(notes: notes) : .merged(notes: notes)
    }

    /// Merges tags stored under another spelling of a name (decomposed accents, a leading `#`,
    /// spaces: stores written before names were normalised) into the name's one tag, in one
    /// save. Reads only the tag names; writes nothing when every name is already in its form.
    /// - Returns: how many tags were merged or renamed.
    @discardableResult
    public func mergeTagSpellings() throws(NoteBookError) -> Int {
        guard capabilities.hasTags else { return 0 }
        let misspelled: [(key: Int64, name: String)]
        do {
            // Names alone, read as rows show them: each launch pays for one column of the tags.
            misspelled = try readTagNames().compactMap { key, name in
                // Swift's == calls canonically equivalent spellings equal; the store's bytes differ.
                let stored = TagName.stored(name)
                // "#" alone has no other spelling: it is left as it is, still renamable.
                guard !stored.isEmpty, !stored.unicodeScalars.elementsEqual(name.unicodeScalars) else { return nil }
                return (key, stored)
            }.sorted { $0.key < $1.key }
        } catch {
            throw .wrapping(error)
        }
        guard !misspelled.isEmpty else { return 0 }
        try changing {
            for (key, name) in misspelled {
                guard let tag = try context.existingObject(with: ObjectID(entityName: Self.tagEntity, primaryKey: key)) else { continue }
                move(tag, to: name, merging: try existingTag(named: name), datingNotes: false)
            }
        }
        return misspelled.count
    }

    /// Renames `tag`, or when `target` (the tag of that name) exists gives its notes `target`
    /// and deletes it; `datingNotes`: a merge the user asked for changes the notes' modified dates.
    private func move(_ tag: ManagedObject, to name: String, merging target: ManagedObject?, datingNotes: Bool) {
        guard let target, target !== tag else {
            tag.setValue(.string(name), forKey: "name")
            return
        }
        for note in tag.objects(forKey: "notes") {
            note.removeObject(tag, forKey: "tags")
            if !note.objects(forKey: "tags").contains(where: { $0 === target }) { note.addObject(target, forKey: "tags") }
            if datingNotes { noteChanged(note) }
        }
        context.delete(tag)
    }

    /// Pins or unpins a note (pinned notes list first). A pin is not an edit of the note, so
    /// its modified date stays (as in Apple's Notes): pinning does not move it in `--sort modified`.
    /// - Returns: false when the note already was as asked (nothing is written).
    @discardableResult
    public func setPinned(_ pinned: Bool, of id: NoteID) throws(NoteBookError) -> Bool {
        try capabilities.require(.pins)
        let note = try object(for: id)
        guard (note.value(forKey: "pinned")?.boolValue ?? false) != pinned else { return false }
        try changing { note.setValue(.bool(pinned), forKey: "pinned") }
        return true
    }

    // MARK: Inside the app layer

    /// The key of the tag of this name; nil when there is none.
    func tagKey(named name: String) throws -> Int64? {
        var key: Int64?
        try context.forEachPrimaryKey(of: PropertyFetchRequest(entityName: Self.tagEntity, properties: [], predicate: Self.named(name))) { key = $0 }
        return key
    }

    /// The keys of the tags whose name contains `search`, as a search matches text.
    func tagKeys(containing search: String) throws -> [Int64] {
        var keys: [Int64] = []
        try context.forEachPrimaryKey(of: PropertyFetchRequest(entityName: Self.tagEntity, properties: [],
                                                               predicate: Self.contains(search, in: "name"))) { keys.append($0) }
        return keys
    }

    /// The tag names by key, read once until tags change (nil when rows show no tags).
    func tagNamesIfNeeded(_ needed: Bool) throws -> [Int64: String] {
        guard needed else { return [:] }
        if let tagNames { return tagNames }
        return try readTagNames()
    }

    func readTagNames() throws -> [Int64: String] {
        var names: [Int64: String] = [:]
        var read = RowProperties()
        let name = read.add(.attribute("name")) { $0?.stringValue }
        try context.forEachRow(of: PropertyFetchRequest(entityName: Self.tagEntity, properties: read.properties)) { row in
            names[row.primaryKey] = name.value(in: row)
        }
        tagNames = names
        return names
    }

    /// The tag of this name, made when there is none.
    func tagObject(named name: String) throws -> ManagedObject {
        if let tag = try existingTag(named: name) { return tag }
        let tag = try context.insertObject(entityName: Self.tagEntity)
        tag.setValue(.string(name), forKey: "name")
        return tag
    }

    private func existingTag(named name: String) throws -> ManagedObject? {
        let pending = context.insertedObjectsList.first { $0.objectID.entityName == Self.tagEntity && $0.value(forKey: "name")?.stringValue == name }
        if let pending { return pending }
        return try context.fetch(FetchRequest(entityName: Self.tagEntity, predicate: Self.named(name), fetchLimit: 1)).first
    }

    /// Deletes a tag that no note has any more.
    func deleteIfUnused(_ tag: ManagedObject) {
        if tag.objects(forKey: "notes").isEmpty { context.delete(tag) }
    }

    private static func named(_ name: String) -> ObjectPredicate {
        .comparison(.keyPath(base: nil, components: ["name"]), .equal, .constant(.string(name)), [])
    }
}
