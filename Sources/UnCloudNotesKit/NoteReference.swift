import Foundation
import ManagedStore

/// How a person or a script names one note: by the number `notes list` shows, or (v5) by the
/// start of its identifier, as git takes a short hash. The identifier never changes, on any
/// machine a sync reaches; the number is this store's.
public enum NoteReference: Equatable, Sendable, CustomStringConvertible {
    case number(NoteID)
    /// At least `minimumPrefix` hex digits, lowercased, dashes left out.
    case identifierPrefix(String)

    /// The fewest hex digits a prefix may have: fewer would match many notes in any store.
    public static let minimumPrefix = 4

    /// Digits alone are a number (counted from 1); hex digits (and dashes) with at least one
    /// letter are an identifier's start. Nil for other text.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let number = Int64(trimmed), number >= 1 else { return nil }
            self = .number(NoteID(number))
            return
        }
        let hex = trimmed.lowercased().filter { $0 != "-" }
        guard hex.count >= Self.minimumPrefix, hex.count <= 32, hex.allSatisfy(\.isHexDigit) else { return nil }
        self = .identifierPrefix(hex)
    }

    public var description: String {
        switch self {
        case .number(let id): id.description
        case .identifierPrefix(let prefix): prefix
        }
    }
}

extension NoteBook {
    /// The note a reference names; a prefix needs identifiers (v5) and must match one note.
    public func noteID(_ reference: NoteReference) throws(NoteBookError) -> NoteID {
        switch reference {
        case .number(let id):
            return id
        case .identifierPrefix(let prefix):
            try capabilities.require(.identifiers)
            var matches: [Int64] = []
            do {
                var read = RowProperties()
                let identifier = read.add(.attribute("identifier")) { $0?.uuidValue }
                try context.forEachRow(of: PropertyFetchRequest(entityName: Self.noteEntity, properties: read.properties)) { row in
                    let hex = identifier.value(in: row)?.uuidString.lowercased().filter { $0 != "-" }
                    if hex?.hasPrefix(prefix) == true { matches.append(row.primaryKey) }
                }
            } catch {
                throw .wrapping(error)
            }
            guard let first = matches.first else { throw .noNoteWithIdentifierPrefix(prefix) }
            guard matches.count == 1 else { throw .ambiguousIdentifierPrefix(prefix, matches: matches.count) }
            return NoteID(first)
        }
    }
}
