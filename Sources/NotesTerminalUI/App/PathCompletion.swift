import Foundation
import UnCloudNotesKit

/// Path completion for the attach prompt: `~` expansion and the longest common prefix of the
/// matching files, like a shell's Tab.
public enum PathCompletion {
    /// The typed path with `~` as `$HOME`, as a shell would read it.
    public static func expand(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        expandingTilde(text.trimmingCharacters(in: .whitespaces), environment: environment)
    }

    /// The completed text and, when several entries still match, their names.
    public static func complete(_ text: String) -> (text: String, candidates: [String]) {
        let expanded = expand(text)
        let folder = text.hasSuffix("/") || expanded.isEmpty ? (expanded.isEmpty ? "." : expanded) : (expanded as NSString).deletingLastPathComponent
        let prefix = text.hasSuffix("/") ? "" : (expanded as NSString).lastPathComponent
        // A folder that cannot be listed completes nothing, as in a shell.
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? [])
            .filter { $0.hasPrefix(prefix) && (prefix.hasPrefix(".") || !$0.hasPrefix(".")) }
            .sorted()
        guard !names.isEmpty else { return (text, []) }
        var common = names[0]
        for name in names.dropFirst() {
            while !name.hasPrefix(common) { common.removeLast() }
        }
        let typedFolder = text.hasSuffix("/") ? text : (text.contains("/") ? (text as NSString).deletingLastPathComponent : "")
        let joined = typedFolder.isEmpty ? common : (typedFolder.hasSuffix("/") ? typedFolder + common : typedFolder + "/" + common)
        var isDirectory: ObjCBool = false
        let full = (folder as NSString).appendingPathComponent(common)
        if names.count == 1, FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), isDirectory.boolValue {
            return (joined + "/", [])
        }
        return (joined, names.count > 1 ? names : [])
    }
}
