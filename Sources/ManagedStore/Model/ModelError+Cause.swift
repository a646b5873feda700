extension ModelError {
    /// The error that stopped a read (the system's, a decoder's, an archive's), kept so a caller
    /// can look at it. Those errors are seldom `Equatable`, so two causes are equal when they are
    /// of one type and say the same: enough for `ModelError` to stay `Equatable`.
    public struct Cause: Equatable, Sendable, CustomStringConvertible {
        /// The underlying error.
        public let error: any Error

        /// Keeps `error` as the cause.
        public init(_ error: any Error) {
            self.error = error
        }

        /// The underlying error's own text.
        public var description: String { "\(error)" }

        public static func == (lhs: Cause, rhs: Cause) -> Bool {
            type(of: lhs.error) == type(of: rhs.error) && lhs.description == rhs.description
        }
    }
}
