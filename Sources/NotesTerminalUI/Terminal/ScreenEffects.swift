import Foundation

/// The editor and the viewer on the real terminal: the editor gets the screen (ncurses suspended
/// meanwhile), the viewer opens beside it.
struct ScreenEffects: TerminalEffects {
    let screen: TerminalScreen
    let environment: [String: String]

    func edit(_ text: String) -> NotesEvent {
        do {
            return .edited(try ExternalEditor.fromEnvironment(environment).edit(text) { run in try screen.suspended(run) })
        } catch {
            return .editorFailed("\(error)")
        }
    }

    func openImage(_ data: Data, named name: String) -> NotesEvent {
        .imageOpened(ImageViewer.open(data, named: name, environment: environment))
    }
}
