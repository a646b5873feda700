/// What a key in the attach or caption prompt does (`PromptState.handled`).
enum PromptAction {
    case cancel, submit
    /// Tab in the attach prompt: the path completed.
    case complete
    /// Typed into the field.
    case edit(Key)
}

extension NotesState.PromptState {
    /// The prompt's keys: what Enter does and where Esc goes depend on which question it asks.
    static func keys(for purpose: Purpose, takesCaptions: Bool) -> Keymap<PromptAction> {
        let bindings: [KeyBinding<PromptAction>]
        switch purpose {
        case .attachImage:
            bindings = [KeyBinding(.enter, does: .submit,
                                   help: takesCaptions ? "ask for the image's caption next" : "attach the image at this path", hint: KeyHint(takesCaptions ? "caption next" : "attach")),
                        KeyBinding(.tab, does: .complete, help: "complete the path", hint: "complete"),
                        KeyBinding(.escape, does: .cancel, help: "cancel", hint: "cancel")]
        case .newImageCaption:
            // Ctrl-U is the field's own key (it deletes to the start); named here for the hint.
            bindings = [KeyBinding(.enter, does: .submit, help: "attach with this caption", hint: "attach"),
                        KeyBinding(.control("u"), does: .edit(.control("u")), help: "clear the caption", hint: "clear"),
                        KeyBinding(.escape, does: .cancel, help: "back to the path", hint: "back to the path")]
        case .caption:
            bindings = [KeyBinding(.enter, does: .submit, help: "save the caption", hint: "save"),
                        KeyBinding(.escape, does: .cancel, help: "cancel", hint: "cancel")]
        }
        return Keymap("Prompt", bindings, otherKeys: OtherKeys("other keys", action: PromptAction.edit))
    }
}
