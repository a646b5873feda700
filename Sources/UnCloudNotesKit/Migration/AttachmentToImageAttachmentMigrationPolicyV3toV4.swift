import Foundation
import ManagedStore

/// The chapter's custom policy for v3 -> v4: every `Attachment` becomes an `ImageAttachment`
/// with the mapping's attribute values, the image's width and height (read from its header, the
/// image is not decoded; 0 when unreadable), and a caption: the first 80 characters of the
/// note's body.
///
/// The values are SQL functions of the source row (`image_width`, `image_height`, `caption`), so
/// the mapping runs as one `INSERT … SELECT`; the per-object path calls the same functions.
public final class AttachmentToImageAttachmentMigrationPolicyV3toV4: EntityMigrationPolicy, SetBasedMigrationPolicy {
    /// The class name the mapping model names, `Module.ClassName` as Xcode writes it.
    public static let className = "UnCloudNotes.AttachmentToImageAttachmentMigrationPolicyV3toV4"
    /// How much of the note's body becomes the caption, in characters (not bytes).
    public static let captionLength = 80

    /// The image's width in pixels from its header, 0 when there is no readable image: an
    /// unreadable image keeps its bytes and the upgrade goes on, nothing is lost.
    public static let imageWidth = MigrationFunction(name: "image_width", alwaysGives: .float) { arguments in
        .double(Double(pixelSize(arguments.first ?? nil)?.width ?? 0))
    }

    /// The image's height in pixels, as `imageWidth`.
    public static let imageHeight = MigrationFunction(name: "image_height", alwaysGives: .float) { arguments in
        .double(Double(pixelSize(arguments.first ?? nil)?.height ?? 0))
    }

    /// The caption: the first `captionLength` characters (grapheme clusters) of the body, "" without one.
    public static let caption = MigrationFunction(name: "caption", alwaysGives: .string) { arguments in
        guard case .string(let body)?? = arguments.first else { return .string("") }
        return .string(String(body.prefix(captionLength)))
    }

    private static func pixelSize(_ image: AttributeValue?) -> (width: Int, height: Int)? {
        guard case .data(let bytes)? = image else { return nil }
        // As the chapter's policy: an image whose size cannot be read is sized 0 x 0, not an error.
        return try? NoteImage(storedData: bytes).pixelSize()
    }

    /// Its one hook only checks the mapping: what the mapping copies (the date, the image) stays
    /// as it was, and validation has only the computed values' promises to trust.
    public var leavesCopiedValues: Bool { true }

    override public func beginEntityMapping(_ mapping: EntityMapping, manager: MigrationManager) throws {
        guard !mapping.attributeMappings.isEmpty else {
            throw MigrationError.mapping(.noAttributeMappings(mapping: mapping.name, neededTo: "copy the attachment"))
        }
        if let missing = mapping.attributeMappings.first(where: { $0.valueExpression == nil }) {
            throw MigrationError.mapping(.noValueExpression(mapping: mapping.name, attribute: missing.name))
        }
    }

    /// Width and height from the image the mapping gives the attachment, the caption from its note's body.
    public func computedValues(for mapping: EntityMapping) throws -> [String: ComputedValue] {
        let image = mapping.attributeMappings.first { $0.name == "image" }?.valueExpression
            ?? .keyPath(base: .variable("source"), components: ["image"])
        let body = ValueExpression.keyPath(base: .variable("source"), components: ["note", "body"])
        return [
            "width": ComputedValue(Self.imageWidth, [image]),
            "height": ComputedValue(Self.imageHeight, [image]),
            "caption": ComputedValue(Self.caption, [body]),
        ]
    }
}

extension UnCloudNotesModel {
    /// The migration policies the app's mapping models name.
    public static var migrationPolicies: MigrationPolicyRegistry {
        var registry = MigrationPolicyRegistry()
        registry.register(AttachmentToImageAttachmentMigrationPolicyV3toV4.self,
                          as: AttachmentToImageAttachmentMigrationPolicyV3toV4.className)
        registry.register(IdentifierMigrationPolicyV4toV5.self, as: IdentifierMigrationPolicyV4toV5.className)
        return registry
    }
}
