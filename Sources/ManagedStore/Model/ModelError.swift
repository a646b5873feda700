/// Why a model file could not be loaded: always names the file, and the line, entity and property
/// when they are known, so a user can find the problem without a debugger.
public struct ModelError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var entity: String?
    public var property: String?
    public var reason: String
    /// The entity, property, fetch index or configuration name refused as one Xcode would not
    /// accept, exactly as the file holds it (the reason shows it escaped).
    public var invalidName: String?

    public init(file: String, line: Int? = nil, entity: String? = nil, property: String? = nil,
                reason: String, invalidName: String? = nil) {
        self.file = file
        self.line = line
        self.entity = entity
        self.property = property
        self.reason = reason
        self.invalidName = invalidName
    }

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
