import Yams

/// Front matter written directly, without the YAML library's encoder, when every text in it
/// reads back unquoted as itself: a first sync renders every note, and the encoder (which
/// resolves each value's type with regular expressions) took most of its time. Anything else
/// (a title with a colon or a quote, a long one, one YAML would read as a boolean) returns nil and goes through the encoder. Both write the same YAML for what this takes.
enum PlainFrontMatter {
    static func text(_ matter: FrontMatter) -> String? {
        // The identifiers are lower-case UUIDs (made from UUID values), always plain.
        guard let title = scalar(matter.title) else { return nil }
        var text = "identifier: \(matter.identifier)\ntitle: \(title)\n"
        // ISO 8601 dates would read as timestamps unquoted: the encoder single-quotes them too.
        if let created = matter.created { text += "created: '\(created)'\n" }
        if let modified = matter.modified { text += "modified: '\(modified)'\n" }
        if let pinned = matter.pinned { text += "pinned: \(pinned)\n" }
        if let tags = matter.tags {
            guard let lines = list(tags.map { scalar($0).map { "- \($0)\n" } }) else { return nil }
            text += tags.isEmpty ? "tags: []\n" : "tags:\n" + lines
        }
        if let images = matter.images {
            guard let lines = list(images.map(image)) else { return nil }
            text += images.isEmpty ? "images: []\n" : "images:\n" + lines
        }
        return text
    }

    private static func image(_ image: FrontMatter.Image) -> String? {
        guard MirrorImageFile.isImagePath(image.file) else { return nil }
        var text = "- identifier: \(image.identifier)\n  file: \(image.file)\n"
        if let created = image.created { text += "  created: '\(created)'\n" }
        if let caption = image.caption {
            guard let caption = scalar(caption) else { return nil }
            text += "  caption: \(caption)\n"
        }
        for (key, value) in [("width", image.width), ("height", image.height)] {
            guard let value else { continue }
            guard let number = number(value) else { return nil }
            text += "  \(key): \(number)\n"
        }
        return text
    }

    private static func list(_ items: [String?]) -> String? {
        var text = ""
        for item in items {
            guard let item else { return nil }
            text += item
        }
        return text
    }

    /// A size as the encoder writes doubles (`6.4e+2`), through the library's own representation.
    private static func number(_ value: Double) -> String? {
        (try? value.represented())?.string
    }

    /// Words YAML 1.1 reads as booleans or null when unquoted.
    private static let reserved: Set<String> = ["y", "n", "yes", "no", "true", "false", "on", "off", "null"]
    private static let punctuation = Set(" -_.,()/'!?&+".unicodeScalars)

    /// The text as a plain scalar; `''` when empty; nil when it needs quotes (or is long
    /// enough that the emitter would fold it).
    private static func scalar(_ text: String) -> String? {
        if text.isEmpty { return "''" }
        let scalars = text.unicodeScalars
        guard scalars.count <= 60, let first = scalars.first, let last = scalars.last, isLetter(first), last != " ",
              scalars.allSatisfy({ isLetter($0) || isMarkOrDigit($0) || isPlainSymbol($0) || punctuation.contains($0) }),
              !reserved.contains(text.lowercased()) else { return nil }
        return text
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }

    /// Symbols such as ☕ that YAML's emitter writes unquoted: those of the Basic Multilingual
    /// Plane it counts printable (it escapes those beyond, such as 🎉, so those go through it).
    private static func isPlainSymbol(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .otherSymbol, .mathSymbol, .currencySymbol:
            (0xA0...0xD7FF).contains(scalar.value) || ((0xE000...0xFFFD).contains(scalar.value) && scalar.value != 0xFEFF)
        default: false
        }
    }

    private static func isMarkOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .decimalNumber: true
        default: false
        }
    }
}
