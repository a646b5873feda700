extension ImageError {
    /// Why an image file could not be read, as a case callers and tests match rather than
    /// wording to search; `description` makes the words a user reads after the path.
    public enum FileReason: Equatable, Sendable, CustomStringConvertible {
        /// Reading the file failed: missing, a folder, not allowed, or the system's `errno`, as
        /// the reader said, kept as the cause.
        case cannotRead(UserFileError)
        /// A folder was picked where an image file is wanted (found before reading it).
        case folderNotImageFile

        /// The reason in the words a user reads (the only place they are made).
        public var description: String {
            switch self {
            case .cannotRead(let error): error.reason
            case .folderNotImageFile: "a folder, not an image file"
            }
        }
    }
}
