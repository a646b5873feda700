import UnCloudNotesKit
import Yams

/// The front matter of a note file, written directly (the one writer of the format): each value
/// on one line, as `YAMLText` writes text, in the order `FrontMatter` declares. Written by hand
/// because the YAML library's encoder escapes emoji and resolves each value's type with regular
/// expressions, which took most of a first sync's time; Yams only reads it back.
enum FrontMatterText {
    static func text(_ matter: FrontMatter) -> String {
        // The identifiers are lower-case UUIDs (made from UUID values), always plain.
        var text = "identifier: \(matter.identifier)\ntitle: \(YAMLText.scalar(matter.title))\n"
        // ISO 8601 dates would read as timestamps unquoted: single quotes keep them strings.
        if let created = matter.created { text += "created: '\(created)'\n" }
        if let modified = matter.modified { text += "modified: '\(modified)'\n" }
        if let pinned = matter.pinned { text += "pinned: \(pinned)\n" }
        if let tags = matter.tags {
            text += tags.isEmpty ? "tags: []\n" : "tags:\n" + tags.map { "- \(YAMLText.scalar($0))\n" }.joined()
        }
        if let images = matter.images {
            text += images.isEmpty ? "images: []\n" : "images:\n" + images.map(image).joined()
        }
        return text
    }

    private static func image(_ image: FrontMatter.Image) -> String {
        // Image files are `images/<hex>.<letters>` (`MirrorImageFile`), always plain.
        var text = "- identifier: \(image.identifier)\n  file: \(image.file)\n"
        if let created = image.created { text += "  created: '\(created)'\n" }
        if let caption = image.caption { text += "  caption: \(YAMLText.scalar(caption))\n" }
        for (key, value) in [("width", image.width), ("height", image.height)] {
            if let value { text += "  \(key): \(number(value))\n" }
        }
        return text
    }

    /// A size as YAML writes doubles (`6.4e+2`), through the library's own representation,
    /// which reads back as the same value; `.nan` should a size ever not be a number.
    private static func number(_ value: Double) -> String {
        (try? value.represented())?.string ?? ".nan"
    }
}
