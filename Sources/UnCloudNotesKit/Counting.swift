extension Int {
    /// "1 image", "2 images", "0 notes": counts in messages read as English, never "image(s)".
    public func counting(_ singular: String, plural: String? = nil) -> String {
        "\(self) \(self == 1 ? singular : plural ?? singular + "s")"
    }
}
