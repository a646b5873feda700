import Foundation

/// The refs of a repository, read from its files (`HEAD`, loose refs, `packed-refs`) rather
/// than by starting `git rev-parse` for each: a sync reads `HEAD` and its own refs a dozen
/// times, and git writes each ref whole (a new file renamed into place), while sync's lock
/// keeps its own git commands from running meanwhile. What a file holds is shape-checked.
struct GitRefs {
    let gitDirectory: URL

    /// The object a ref names (`HEAD` or `refs/...`), following symbolic refs; nil when it names
    /// none (an unborn branch, no such ref).
    func resolve(_ name: String) throws(SyncError) -> String? {
        var name = name
        for _ in 0..<5 { // a symbolic ref names another, at most a few deep
            var found = try looseValue(name)
            if found == nil { found = try packedValue(name) }
            guard let value = found else { return nil }
            guard value.hasPrefix("ref: ") else {
                guard GitAnswer.isObjectID(value) else { throw .untrustedGitAnswer(command: "the ref \(name)", expected: "an object id") }
                return value
            }
            name = String(value.dropFirst("ref: ".count))
        }
        throw .untrustedGitAnswer(command: "the ref \(name)", expected: "a symbolic ref that ends")
    }

    private func looseValue(_ name: String) throws(SyncError) -> String? {
        let url = gitDirectory.appendingPathComponent(name)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { return nil }
        do {
            return try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw .file(path: url.path, error)
        }
    }

    /// `packed-refs`: `<id> <ref>` lines, after a `#` header; `^<id>` lines peel tags.
    private func packedValue(_ name: String) throws(SyncError) -> String? {
        guard name.hasPrefix("refs/") else { return nil }
        let url = gitDirectory.appendingPathComponent("packed-refs")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw .file(path: url.path, error)
        }
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("^") {
            let fields = line.split(separator: " ", maxSplits: 1)
            if fields.count == 2, fields[1] == name { return String(fields[0]) }
        }
        return nil
    }
}
