import Foundation
import UnCloudNotesKit

extension NotesApp {
    func handlePrompt(_ key: Key, _ state: PromptState) throws -> Action {
        var state = state
        switch key {
        case .escape:
            screen = state.previous
            return .none
        case .enter:
            try submit(state)
            return .none
        case .tab:
            if case .attachImage = state.purpose { complete(&state) }
        default:
            edit(&state.input, key)
            state.error = nil
            state.completions = []
        }
        screen = .prompt(state)
        return .none
    }

    private func submit(_ state: PromptState) throws {
        var state = state
        switch state.purpose {
        case .attachImage(let id):
            let path = PathCompletion.expand(state.input.text)
            guard !path.isEmpty else {
                state.error = "type the path of an image file"
                screen = .prompt(state)
                return
            }
            // The reason first, then the file's name: a long path must not push the reason off screen.
            let name = (path as NSString).lastPathComponent
            let image: NoteImage
            do {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                    throw ImageError("no such file")
                }
                guard !isDirectory.boolValue else { throw ImageError("a folder, not an image file") }
                image = try NoteImage(validating: try Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                state.error = "\(error) (\(name))"
                screen = .prompt(state)
                return
            }
            try attachAskingToReplace(image, to: id, returningTo: state.previous)
        case .caption(let id, let attachment):
            try book.setCaption(state.input.text, of: attachment.id)
            screen = state.previous
            try storeChanged(selecting: id)
            message = "caption saved"
        }
    }

    /// Attaches the image; when the note has its one image (v2), asks whether to replace it.
    private func attachAskingToReplace(_ image: NoteImage, to id: NoteID, returningTo previous: Screen) throws(NoteBookError) {
        do {
            try attach(image, to: id, replacing: false)
        } catch .noteHasItsImage {
            let title = snapshot(of: id)?.title ?? ""
            screen = .confirm(ConfirmState(purpose: .replaceImage(id, image),
                                           question: "Notes of \(versionLabel) hold one image: replace the image of “\(title)”? y/N",
                                           previous: previous))
        }
    }

    /// Attaches and shows the new image in the note.
    func attach(_ image: NoteImage, to id: NoteID, replacing: Bool) throws(NoteBookError) {
        let count: Int
        do {
            count = try book.attach([image], to: id, replacing: replacing)
        } catch .noSuchNote {
            screen = .list
            return
        }
        try storeChanged(selecting: id)
        screen = .detail(DetailState(noteID: id, attachment: max(0, count - 1)))
        message = "image attached"
    }

    private func complete(_ state: inout PromptState) {
        let completion = PathCompletion.complete(state.input.text)
        state.input.replaceAll(with: completion.text)
        state.completions = completion.candidates
        state.error = completion.candidates.isEmpty && completion.text == state.input.text ? nil : state.error
    }
}

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
