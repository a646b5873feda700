import Foundation

/// A bare repository made with git's default branch `master` (before `init.defaultBranch`
/// changed it) keeps `HEAD` naming `master` after sync pushes `main`, so `git clone` of it
/// checks out nothing. After the push that makes `main` there, sync looks once: a remote that
/// is a folder here is pointed at `main`; for another, the user is told what to change.
extension MirrorRepository {
    /// The notice for the user, if any; nil when the remote's `HEAD` names a branch it has.
    func defaultBranchNotice(remote: String) throws(SyncError) -> String? {
        let answer = try git.output(["ls-remote", "--symref", Self.remote, "HEAD"])
        // Only a notice rides on this: a remote that does not say is left as it is.
        guard answer.status == 0 else { return nil }
        // git advertises HEAD only when it names a branch the remote has.
        let lines = String(decoding: answer.standardOutput, as: UTF8.self).split(separator: "\n")
        guard !lines.contains(where: { $0.hasSuffix("\tHEAD") }) else { return nil }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: remote, isDirectory: &isFolder), isFolder.boolValue {
            let named = (try? String(contentsOfFile: remote + "/HEAD", encoding: .utf8))? // only named in the notice
                .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "ref: ", with: "") ?? "a branch"
            try git.run(["--git-dir=\(remote)", "symbolic-ref", "HEAD", "refs/heads/\(Self.branch)"])
            return "the remote's HEAD named \(named), which it does not have; it now names \(Self.branch), so git clone checks the notes out"
        }
        return "the remote's default branch is one it does not have, so git clone of it checks out nothing: "
            + "make \(Self.branch) its default branch (on a git host, in the repository's settings)"
    }
}
