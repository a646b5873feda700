/// Why a model file could not be loaded: always names the file, and the line, entity and property
/// when they are known, so a user can find the problem without a debugger.
public struct ModelError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The model file at fault, as the user would find it.
    public var file: String
    /// The line in the file, when the problem is in a known element.
    public var line: Int?
    /// The entity the problem is in, if any.
    public var entity: String?
    /// The property the problem is in, if any.
    public var property: String?
    /// What is wrong, as a case to match; its `description` is the message's words.
    public var reason: Reason
    /// The entity, property, fetch index or configuration name refused as one Xcode would not
    /// accept, exactly as the file holds it (the reason shows it escaped).
    public var invalidName: String?

    /// An error naming the file and as much of the place as is known.
    public init(file: String, line: Int? = nil, entity: String? = nil, property: String? = nil,
                reason: Reason, invalidName: String? = nil) {
        self.file = file
        self.line = line
        self.entity = entity
        self.property = property
        self.reason = reason
        self.invalidName = invalidName
    }

    /// One line: file, line, entity and property, then the reason.
    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        var subject: [String] = []
        if let entity { subject.append("entity \(entity)") }
        if let property { subject.append("property \(property)") }
        let prefix = subject.isEmpty ? location : "\(location): \(subject.joined(separator: ", "))"
        return "\(prefix): \(reason)"
    }
}
