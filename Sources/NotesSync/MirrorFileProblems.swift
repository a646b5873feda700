import AgeEncryption
import Foundation
import UnCloudNotesKit

/// Why a note file of the mirror cannot be read (docs/sync.md says how one is written).
public enum NoteFileProblem: Sendable, CustomStringConvertible {
    /// Not named `notes/<identifier>.md`.
    case misnamed
    /// No `---` fences around front matter at its start.
    case noFrontMatter
    /// The front matter does not decode (the YAML reader's error).
    case frontMatter(any Error)
    case identifierNotAUUID(String)
    /// The identifier names another file: a note copied by hand to another name.
    case identifierNamesAnotherFile(identifier: String, file: String)
    case notADate(field: String, text: String)
    case imageIdentifierNotAUUID(String)
    case imageFileNotInImages(String)
    /// A tag the app would refuse.
    case badTag(NoteBookError)

    public var description: String {
        switch self {
        case .misnamed: MirrorNote.namingRule
        case .noFrontMatter: "no front matter between --- lines at its start"
        case .frontMatter(let error): "front matter: \(FrontMatterProblem.describe(error))"
        case .identifierNotAUUID(let identifier): "identifier '\(identifier)' is not a UUID"
        case .identifierNamesAnotherFile(let identifier, let file): "its identifier \(identifier) names another file (\(file))"
        case .notADate(let field, let text): "\(field) '\(text)' is not an ISO 8601 date"
        case .imageIdentifierNotAUUID(let identifier): "image identifier '\(identifier)' is not a UUID"
        case .imageFileNotInImages(let file): "image file '\(file)' is not images/<sha256>.<extension>"
        case .badTag(let error): error.description
        }
    }
}

/// Why a remote's branch, or a local folder, is not a notes mirror.
public enum NotAMirrorReason: Sendable, CustomStringConvertible {
    /// A folder with files in it that is no git repository.
    case filesWithoutRepository
    /// A remote with branches, none of them the mirror's.
    case otherBranches(expected: String)
    /// Commits without the file that marks a mirror.
    case noMarker(branch: String?, marker: String)

    public var description: String {
        switch self {
        case .filesWithoutRepository: "it holds files but is no git repository"
        case .otherBranches(let expected): "it has branches but no \(expected)"
        case .noMarker(.some(let branch), let marker): "its \(branch) has no \(marker) file"
        case .noMarker(nil, let marker): "its commits have no \(marker) file"
        }
    }
}

/// Why the mirror's recipients or name key file is not as sync writes it.
public enum KeyFileProblem: Sendable, CustomStringConvertible {
    /// A line that is not an age recipient.
    case badRecipient(AgeError)
    case noRecipient
    /// Recipients, but no sealed name key beside them.
    case noNameKey
    case nameKeyNot32Bytes

    public var description: String {
        switch self {
        case .badRecipient(let error): error.description
        case .noRecipient: "it lists no recipient"
        case .noNameKey: "the mirror has recipients but no name key"
        case .nameKeyNot32Bytes: "it does not hold a 32-byte key"
        }
    }
}
