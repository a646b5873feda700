import Foundation

/// `~` and `~/…` with the `HOME` environment variable, as shells expand them. Foundation's
/// `expandingTildeInPath` uses the account's home directory from the password database instead,
/// which is not where a user who set `HOME` (sudo -E, containers, test sandboxes) expects files.
/// Other forms (`~user/…`, a `~` inside a path) are returned unchanged.
public func expandingTilde(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
    guard path == "~" || path.hasPrefix("~/") else { return path }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    guard path != "~" else { return home }
    let rest = path.dropFirst(2)
    return home.hasSuffix("/") ? home + rest : home + "/" + rest
}
