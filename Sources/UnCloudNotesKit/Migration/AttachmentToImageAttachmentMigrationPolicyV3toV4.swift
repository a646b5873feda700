import Foundation
import ManagedStore

/// The chapter's custom policy for v3 -> v4: every `Attachment` becomes an `ImageAttachment`
/// with the mapping's attribute values, the image's width and height (read from its header, the
/// image is not decoded; 0 when unreadable), and a caption: the first 80 characters of the
/// note's body.
public final class AttachmentToImageAttachmentMigrationPolicyV3toV4: EntityMigrationPolicy {
    /// The class name the mapping model names, `Module.ClassName` as Xcode writes it.
    public static let className = "UnCloudNotes.AttachmentToImageAttachmentMigrationPolicyV3toV4"
    /// How much of the note's body becomes the caption, in characters (not bytes).
    public static let captionLength = 80

    override public func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping,
                                                    manager: MigrationManager) throws {
        guard !mapping.attributeMappings.isEmpty else {
            throw MigrationError("\(mapping.name) has no attribute mappings: the policy needs them to copy the attachment")
        }
        guard let entityName = mapping.destinationEntityName else {
            throw MigrationError("\(mapping.name) has no destination entity")
        }
        let attachment = try manager.insertDestinationObject(entityName: entityName)
        for attributeMapping in mapping.attributeMappings {
            guard let expression = attributeMapping.valueExpression else {
                throw MigrationError("\(mapping.name).\(attributeMapping.name) has no value expression")
            }
            let value = try manager.evaluate(expression, source: source, mapping: mapping, policy: self)
            try manager.setAttribute(value, forKey: attributeMapping.name, of: attachment)
        }
        // An image whose header cannot be read keeps its bytes, with a size of 0 x 0: the
        // upgrade goes on and nothing is lost.
        if case .data(let bytes)? = attachment.value(forKey: "image"), let size = try? NoteImage(storedData: bytes).pixelSize() {
            attachment.setValue(.double(Double(size.width)), forKey: "width")
            attachment.setValue(.double(Double(size.height)), forKey: "height")
        }
        let body: String = if case .string(let text)? = source.object(forKey: "note")?.value(forKey: "body") { text } else { "" }
        attachment.setValue(.string(String(body.prefix(Self.captionLength))), forKey: "caption")
        manager.associate(source: source, destination: attachment, mapping: mapping)
    }
}

extension UnCloudNotesModel {
    /// The migration policies the app's mapping models name.
    public static var migrationPolicies: MigrationPolicyRegistry {
        var registry = MigrationPolicyRegistry()
        registry.register(AttachmentToImageAttachmentMigrationPolicyV3toV4.self,
                          as: AttachmentToImageAttachmentMigrationPolicyV3toV4.className)
        return registry
    }
}
