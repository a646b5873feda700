/// What a key in a note does (`DetailState.handled`).
enum DetailAction {
    case back, help
    /// By this many lines (a page is ten).
    case scroll(Int)
    case top, bottom
    case edit, delete
    case attach, previousImage, nextImage, deleteImage, caption, openImage
}

extension ScreenLayout {
    /// The keys of a note's screen; the hint bar keeps `Esc q back` first, so it shows at 80 columns.
    var detailKeys: Keymap<DetailAction> {
        Keymap("Note", [
            KeyBinding(.escape, .character("q"), .backspace, does: .back, help: "back to the list", hint: KeyHint("back", keys: 2)),
            KeyBinding(.character("?"), does: .help, help: "this help", hint: "help"),
            KeyBinding([(.up, .scroll(-1)), (.down, .scroll(1)), (.character("j"), .scroll(1)), (.character("k"), .scroll(-1))],
                       help: "scroll the body", hint: KeyHint("scroll", keys: 2)),
            KeyBinding([(.pageUp, .scroll(-10)), (.pageDown, .scroll(10))], help: "scroll by ten lines"),
            KeyBinding([(.home, .top), (.end, .bottom), (.character("g"), .top), (.character("G"), .bottom)], help: "top, bottom"),
            KeyBinding([(.controlHome, .top), (.controlEnd, .bottom)], help: "top, bottom (as in the editor's body)"),
            KeyBinding(.character("e"), does: .edit, help: "edit", hint: "edit"),
            KeyBinding(.character("d"), does: .delete, help: "delete (asks first)", hint: "delete"),
            KeyBinding(.character("a"), does: .attach, help: "attach an image", hint: "attach").listed(when: supportsImages),
            KeyBinding([(.left, .previousImage), (.right, .nextImage), (.character("["), .previousImage), (.character("]"), .nextImage)],
                       help: "previous, next image", hint: KeyHint("image", keys: 2)).listed(when: supportsImages),
            KeyBinding(.character("x"), does: .deleteImage, help: "delete the image (asks first)", hint: "delete image")
                .listed(when: supportsImages),
            KeyBinding(.character("c"), does: .caption, help: "edit the image's caption", hint: "caption").listed(when: supportsCaptions),
            KeyBinding(.character("o"), does: .openImage, help: "open the image in the system's viewer (xdg-open)", hint: "open")
                .listed(when: supportsImages),
        ])
    }
}
