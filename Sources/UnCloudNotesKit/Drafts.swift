import Foundation

/// Text the user typed that could not be saved, kept in the drafts folder
/// (`StoreLocation.draftsFolder`): an editor that failed, or a save that failed after the text
/// was read. Nothing typed is dropped without a word.
public enum Drafts {
    /// Writes `text` into `folder` (made 0700 with any missing parent) as a new 0600 file named
    /// after `fileName`, the time and a random tag, so drafts never overwrite each other.
    public static func keep(_ text: Data, named fileName: String, in folder: URL) throws -> URL {
        try StoreLocation.createPrivateFolders(for: folder.appendingPathComponent(fileName))
        let now = Calendar(identifier: .gregorian).dateComponents(in: .current, from: Date())
        let stamp = String(format: "%04d%02d%02d-%02d%02d%02d", now.year ?? 0, now.month ?? 0, now.day ?? 0,
                           now.hour ?? 0, now.minute ?? 0, now.second ?? 0)
        let base = URL(fileURLWithPath: fileName)
        let name = "\(base.deletingPathExtension().lastPathComponent)-\(stamp)-\(UUID().uuidString.prefix(8).lowercased())."
            + (base.pathExtension.isEmpty ? "txt" : base.pathExtension)
        let kept = folder.appendingPathComponent(name)
        try PrivateFiles.write(text, to: kept)
        return kept
    }
}
