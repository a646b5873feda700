import ArgumentParser
import NotesTerminalUI

extension ImageMode: ExpressibleByArgument {}

/// How the full-screen app draws images: `--images`, else the config file's `images`, else auto.
func imageMode(option: ImageMode?) throws -> ImageMode {
    if let option { return option }
    do {
        return try ConfigFile.load()?.choice("images", of: ImageMode.self) ?? .auto
    } catch {
        StandardError.line("uncloudnotes: \(error)")
        throw ExitCode(2)
    }
}
