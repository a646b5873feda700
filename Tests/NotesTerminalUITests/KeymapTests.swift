@testable import NotesTerminalUI
import Testing
import UnCloudNotesKit

/// What a version can hold, without a store: all the keymaps need.
struct KeymapVersion: ScreenLayout, CustomStringConvertible {
    let versionLabel: String
    let supportsImages: Bool
    let supportsCaptions: Bool
    let supportsTags: Bool
    var size = TerminalSize(columns: 100, rows: 40)
    var storePath: String { "/notes.sqlite" }
    var banner: String? { nil }
    var description: String { versionLabel }

    static let all = [
        KeymapVersion(versionLabel: "v1", supportsImages: false, supportsCaptions: false, supportsTags: false),
        KeymapVersion(versionLabel: "v3", supportsImages: true, supportsCaptions: false, supportsTags: false),
        KeymapVersion(versionLabel: "v4", supportsImages: true, supportsCaptions: true, supportsTags: false),
        KeymapVersion(versionLabel: "v5", supportsImages: true, supportsCaptions: true, supportsTags: true),
    ]

    /// Every screen, in each state that changes its keys or hints.
    var screens: [(screen: NotesState.Screen, searching: Bool)] {
        let note = NoteID(1)
        let editors = [NotesState.EditorState.Field.title, .tags, .body].map { focus in
            NotesState.EditorState(noteID: note, title: TextBuffer("t", allowsNewlines: false), body: TextBuffer("b", allowsNewlines: true),
                                   tags: supportsTags ? TextBuffer("", allowsNewlines: false) : nil, focus: focus,
                                   originalTitle: "t", originalBody: "b", originalTags: "")
        }
        let prompts: [NotesState.PromptState] = [.attachImage(to: note, returningTo: .list),
            NotesState.PromptState(purpose: .newImageCaption(note, path: "/a.png"), input: TextBuffer(allowsNewlines: false), previous: .list)]
        return [(.list, false), (.list, true), (.detail(NotesState.DetailState(noteID: note)), false),
                (.confirm(NotesState.ConfirmState(purpose: .deleteNote(note), question: "?", previous: .list)), false),
                (.help(NotesState.HelpState(previous: .list)), false),
                (.tagPicker(NotesState.TagPickerState(tags: [], previous: .list)), false)]
            + editors.map { (.editor($0), false) } + prompts.map { (.prompt($0), false) }
    }

    /// Every keymap there is: each screen's, and the help's sections (text fields, anywhere).
    var keymaps: [Keymap<Void>] { screens.map { keymap(of: $0.screen, searching: $0.searching) } + helpKeymaps }
}

@Suite("One keymap per screen: dispatch, help and hint bar agree (issue #34)")
struct KeymapTests {
    init() { DisplayWidth.configureLocale() }

    @Test("no two bindings of a screen share a key, and no screen binds a key every screen takes first", arguments: KeymapVersion.all)
    func keysAreUnique(version: KeymapVersion) {
        let anywhere = NotesState.anywhereKeys.bindings.flatMap { $0.keys.map(\.key) }
        for keymap in version.keymaps {
            let keys = keymap.bindings.flatMap { $0.keys.map(\.key) }
            for (index, key) in keys.enumerated() {
                #expect(!keys[..<index].contains(key), "\(version) \(keymap.title): \(key.label) twice")
            }
            if keymap.title != "Anywhere" {
                #expect(!keys.contains { anywhere.contains($0) }, "\(version) \(keymap.title) binds a key Anywhere takes")
            }
        }
    }

    @Test("every key the help lists dispatches its binding's action on that screen", arguments: KeymapVersion.all)
    func helpKeysDispatch(version: KeymapVersion) {
        #expect(version.helpKeymaps.map(\.title) == ["Notes list", "Note", "Editor",
                                                      "Text fields (title, body, search, prompts), as in the shell", "Anywhere"])
        for keymap in version.helpKeymaps {
            let help = keymap.helpLines
            for (index, binding) in keymap.bindings.enumerated() where binding.isListed {
                #expect(help.contains { $0.hasPrefix("  \(binding.keyLabel)  ") && $0.hasSuffix(binding.help) },
                        "\(version) \(keymap.title): \(binding.keyLabel)")
                for (key, _) in binding.keys {
                    // The first binding naming the key is this one: it is what dispatch finds.
                    let found = keymap.bindings.firstIndex { $0.action(for: key) != nil }
                    #expect(found == index, "\(version) \(keymap.title): \(key.label) dispatches another binding")
                }
            }
            // Exactly the listed bindings, nothing written by hand between them.
            #expect(help.count == 1 + keymap.bindings.filter(\.isListed).count)
        }
    }

    @Test("every hint-bar key is a key of its binding and dispatches on that screen", arguments: KeymapVersion.all)
    func hintKeysDispatch(version: KeymapVersion) {
        for (screen, searching) in version.screens {
            let keymap = version.keymap(of: screen, searching: searching)
            #expect(!keymap.hints.isEmpty, "\(version) \(keymap.title) has no hint bar")
            for hint in keymap.hints {
                if let other = keymap.otherKeys, hint.keys == other.name { continue }
                let binding = keymap.bindings.first { $0.hintText?.keys == hint.keys && $0.hintText?.label == hint.label }
                #expect(binding != nil, "\(version) \(keymap.title): \(hint.keys) \(hint.label) is in no binding")
                let shown = binding.map { $0.keys.prefix($0.hint?.keyCount ?? $0.keys.count).map(\.key) } ?? []
                #expect(shown.label == hint.keys)
                for key in shown {
                    #expect(keymap.action(for: key) != nil, "\(version) \(keymap.title): \(key.label)")
                }
            }
        }
    }

    @Test("the help screen drawn is the tables' lines; the hint bar drawn is the screen's hints")
    func screensShowTheTables() throws {
        for version in ["v1", "v4", "v5"] {
            let harness = try AppHarness(version: version, notes: [("Only", "text", 1)])
            harness.press(.enter)
            let detail = harness.screen(200, 60).components(separatedBy: "\n")
            let frame = harness.app.frame()
            let expected = frame.keymap(of: frame.model.screen, searching: false).hints.map { "\($0.keys) \($0.label)" }
            #expect(detail.last == expected.joined(separator: "  "), "\(version)")
            harness.press(.character("?"))
            let help = harness.screen(200, 80).components(separatedBy: "\n").map { $0.replacing(/\s+$/, with: "") }
            // Each entry is on a line of its own or beside another (without its indent).
            for line in harness.app.frame().helpKeymaps.flatMap(\.helpLines) {
                #expect(help.contains { $0.contains(line.dropFirst(2)) }, "\(version): \(line)")
            }
        }
    }
}
