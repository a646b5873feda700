import Foundation

/// The user's settings folder, `$XDG_CONFIG_HOME/uncloudnotes` (`~/.config/uncloudnotes` when
/// the variable is unset or not absolute): the settings file and sync's key live there.
public enum ConfigFolder {
    public static func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return URL(fileURLWithPath: base).appendingPathComponent("uncloudnotes")
    }
}
