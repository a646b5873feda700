import ManagedStore

/// Wiring between the app's model and the engine: the typed classes of the current version and
/// the value transformer the model names.
public enum UnCloudNotesEntities {
    /// Entity name -> Swift class, for contexts on a store of the current version (v4).
    public static let currentVersionClasses: [String: ManagedObject.Type] = [
        "Note": Note.self, "Attachment": Attachment.self, "ImageAttachment": ImageAttachment.self,
    ]

    /// Registers `ImageTransformer`, as the iOS app did at launch. Safe to call more than once.
    public static func registerValueTransformers() {
        ValueTransformers.register(ImageTransformer(), forName: ImageTransformer.name)
    }
}
