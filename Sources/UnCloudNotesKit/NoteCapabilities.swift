import ManagedStore

/// What notes can hold at the model version the app runs as, read from the model once (the one
/// place versions are told apart): v1 has no images, v2 one image per note, v3 several
/// attachments, v4 image attachments with a caption and size.
public struct NoteCapabilities: Equatable, Sendable {
    /// How notes hold images in a version: not at all, one per note, or several attachments.
    public enum Images: Equatable, Sendable {
        /// v1: notes hold no images.
        case none
        /// v2: the note's `image` property.
        case one
        /// v3: `Attachment` objects; v4: `ImageAttachment` objects with captions.
        case several(captions: Bool)
    }

    /// How the version's notes hold images.
    public let images: Images
    /// The short name of the version (`v1` … `v5`), for messages.
    public let version: String
    /// The entity new attachments are made of (v3, v4).
    let attachmentEntity: String?
    /// v5: notes and attachments carry a stable `identifier` (a UUID), given when they are made.
    let hasIdentifiers: Bool
    /// v5: a note's `dateModified` is set on every change of it, and the list can sort by it.
    public let recordsModification: Bool
    /// v5: notes can be pinned (pinned notes list first).
    public let hasPins: Bool
    /// v5: notes have tags (`Tag` objects, many-to-many).
    public let hasTags: Bool

    init(model: ManagedObjectModel, version: String) {
        self.version = version
        let noteAttributes = model.allAttributes(of: NoteBook.noteEntity).map(\.name)
        hasIdentifiers = noteAttributes.contains("identifier")
        recordsModification = noteAttributes.contains("dateModified")
        hasPins = noteAttributes.contains("pinned")
        hasTags = model.entity(named: NoteBook.tagEntity) != nil
        if model.entity(named: "ImageAttachment") != nil {
            attachmentEntity = "ImageAttachment"
            images = .several(captions: model.allAttributes(of: "ImageAttachment").contains { $0.name == "caption" })
        } else if model.entity(named: "Attachment") != nil {
            attachmentEntity = "Attachment"
            images = .several(captions: false)
        } else {
            attachmentEntity = nil
            images = noteAttributes.contains("image") ? .one : .none
        }
    }

    /// Whether notes can hold any image (v2 on).
    public var hasImages: Bool { images != .none }

    /// Whether images carry captions (v4 on).
    public var hasCaptions: Bool { images == .several(captions: true) }

    /// Refuses what this version's notes cannot hold (`.notInThisVersion`): tags and pins
    /// before v5, sorting by a modified date it does not record.
    func require(_ feature: NoteFeature) throws(NoteBookError) {
        let supported = switch feature {
        case .tags: hasTags
        case .pins: hasPins
        case .modifiedDates: recordsModification
        case .identifiers: hasIdentifiers
        }
        guard supported else { throw .notInThisVersion(feature, version: version) }
    }

    /// Refuses attaching `count` images to a note that has `existing` ones, unless `replacing`
    /// v2's one image: the image rules of every version in one place.
    func checkAttaching(_ count: Int, toNoteWith existing: Int, of id: NoteID?, replacing: Bool) throws(NoteBookError) {
        switch images {
        case .none:
            guard count == 0 else { throw .noImagesInThisVersion(version: version) }
        case .one:
            guard count <= 1 else { throw .oneImagePerNote(version: version) }
            if count == 1, existing > 0, !replacing, let id { throw .noteHasItsImage(id, version: version) }
        case .several:
            break
        }
    }
}

/// What only later versions hold, named in `NoteBookError.notInThisVersion`.
public enum NoteFeature: String, Sendable {
    case tags
    case pins
    case modifiedDates = "modified dates"
    case identifiers
}
