import Foundation

/// Why `ModelCheck` could not check at all (as opposed to what it found): each case keeps the
/// file it is about and the error that stopped it.
public enum ModelCheckError: Error, CustomStringConvertible {
    /// The model could not be read (missing, not a model, malformed).
    case unreadableModel(path: String, cause: any Error)
    /// The folder of mapping models is missing or cannot be listed.
    case unreadableMappingFolder(path: String, cause: any Error)
    /// The folder of stores is missing or cannot be listed.
    case unreadableStoreFolder(path: String, cause: any Error)
    /// The scratch folder for generated and copied stores could not be made or written.
    case scratch(path: String, cause: any Error)

    /// One line for the command line.
    public var description: String {
        switch self {
        case .unreadableModel(let path, let cause): "\(path): cannot read the model: \(ErrorText.oneLine(cause))"
        case .unreadableMappingFolder(let path, let cause): "\(path): cannot read the mapping models: \(ErrorText.oneLine(cause))"
        case .unreadableStoreFolder(let path, let cause): "\(path): cannot read the stores: \(ErrorText.oneLine(cause))"
        case .scratch(let path, let cause): "\(path): cannot write the check's scratch files: \(ErrorText.oneLine(cause))"
        }
    }
}
