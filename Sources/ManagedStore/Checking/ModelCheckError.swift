import Foundation

/// Why `ModelCheck` could not check at all (as opposed to what it found): each case keeps the
/// file it is about and the error that stopped it.
public enum ModelCheckError: Error, CustomStringConvertible {
    /// The model could not be read (missing, not a model, malformed).
    case unreadableModel(path: String, cause: any Error)
    /// The folder of mapping models is missing or cannot be listed.
    case unreadableMappingFolder(path: String, cause: any Error)
    /// The folder of stores is missing, is not a folder, or cannot be listed.
    case unreadableStoreFolder(path: String, cause: any Error)
    /// The folder of stores holds no store file: a check that would pass without checking any.
    case noStores(path: String)
    /// The folder of mapping models holds none: a check that would pass without using any.
    case noMappingModels(path: String)
    /// The scratch folder for generated and copied stores could not be made or written.
    case scratch(path: String, cause: any Error)
    /// The JUnit report cannot be written there (a folder, a missing folder, no permission, a full disk).
    case unwritableReport(path: String, cause: any Error)

    /// What is wrong with a path given to the check, when no system error says it.
    public enum PathProblem: Error, Equatable, Sendable, CustomStringConvertible {
        /// Nothing is there.
        case missing
        /// A file where a folder is needed.
        case notAFolder
        /// A folder where a file is needed.
        case aFolder

        /// The problem in words.
        public var description: String {
            switch self {
            case .missing: "no such file or folder"
            case .notAFolder: "not a folder"
            case .aFolder: "a folder, not a file"
            }
        }
    }

    /// One line for the command line.
    public var description: String {
        switch self {
        case .unreadableModel(let path, let cause): "\(path): cannot read the model: \(ErrorText.oneLine(cause))"
        case .unreadableMappingFolder(let path, let cause): "\(path): cannot read the mapping models: \(ErrorText.oneLine(cause))"
        case .unreadableStoreFolder(let path, let cause as PathProblem) where cause == .notAFolder:
            "\(path): cannot read the stores: not a folder (give the folder that holds the stores saved at older versions)"
        case .unreadableStoreFolder(let path, let cause): "\(path): cannot read the stores: \(ErrorText.oneLine(cause))"
        case .noMappingModels(let path):
            "\(path): no mapping models found (expected .xcmappingmodel folders or compiled .cdm files in it); give the folder that holds them"
        case .noStores(let path):
            "\(path): no stores found (expected .sqlite, .store or .db files saved by the app at older versions, "
                + "directly in the folder)"
        case .scratch(let path, let cause): "\(path): cannot write the check's scratch files: \(ErrorText.oneLine(cause))"
        case .unwritableReport(let path, let cause as PathProblem) where cause == .aFolder:
            "\(path): cannot write the JUnit report: a folder, not a file (give a file name, such as \(path)/model-check.xml)"
        case .unwritableReport(let path, let cause): "\(path): cannot write the JUnit report: \(ErrorText.oneLine(cause))"
        }
    }
}
