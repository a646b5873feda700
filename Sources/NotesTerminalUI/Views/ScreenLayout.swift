import UnCloudNotesKit

/// The terminal's size, as the last `Key.resize` event gave it.
public struct TerminalSize: Equatable, Sendable {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

/// What the notes screens' layout depends on: the size from the last `resize` event and what
/// the version can show. The app (to page and scroll) and the frame (to draw) both lay screens
/// out through this one extension, so keys and drawing agree without drawing measuring anything.
protocol ScreenLayout {
    var size: TerminalSize { get }
    var supportsImages: Bool { get }
    var supportsCaptions: Bool { get }
    /// v5: tags, pins, the modified order (the editor has a tags field).
    var supportsTags: Bool { get }
    var versionLabel: String { get }
    var storePath: String { get }
    /// A line above every screen (the walkthrough's step), nil for none.
    var banner: String? { get }
}

extension ScreenLayout {
    var isTooSmall: Bool { size.columns < NotesApp.minimumSize.columns || size.rows < NotesApp.minimumSize.rows }

    /// Everything below the banner and above the status and hint lines.
    var contentArea: Rect {
        let top = banner == nil ? 0 : 1
        return Rect(top: top, left: 0, width: size.columns, height: max(0, size.rows - 2 - top))
    }

    /// The list's rows, and the frame of the selected note's preview beside them when wide, below
    /// them when there is height for both (80x24 has).
    var listLayout: (rows: Rect, previewFrame: Rect?) {
        let area = contentArea
        let body = Rect(top: area.top + 1, left: area.left, width: area.width, height: area.height - 1)
        if body.width >= 100 {
            let listWidth = body.width * 11 / 20
            return (Rect(top: body.top, left: body.left, width: listWidth, height: body.height),
                    Rect(top: body.top, left: body.left + listWidth + 1, width: body.width - listWidth - 1, height: body.height))
        }
        if body.height >= 20 {
            let listHeight = body.height / 2
            return (Rect(top: body.top, left: body.left, width: body.width, height: listHeight),
                    Rect(top: body.top + listHeight, left: body.left, width: body.width, height: body.height - listHeight))
        }
        return (body, nil)
    }

    /// The list's rows, and the preview's inside (within its frame).
    var listAreas: (rows: Rect, preview: Rect?) {
        let layout = listLayout
        return (layout.rows, layout.previewFrame.map { $0.inset(by: 1) })
    }

    /// Rows of the list that fit on screen, for paging.
    var listPage: Int { max(1, listAreas.rows.height) }

    /// The preview's text rows above its image.
    func previewTextRows(in area: Rect, hasImage: Bool) -> Int {
        hasImage ? min(max(2, area.height / 3), area.height) : area.height
    }

    /// Where the list preview's image goes: the rows below the text and a blank line; nil when
    /// there is no room for three rows.
    func previewImageRows(in area: Rect) -> (top: Int, rows: Int)? {
        guard area.width > 4, area.height > 2 else { return nil }
        let textRows = previewTextRows(in: area, hasImage: true)
        let rows = area.height - textRows - 1
        return rows >= 3 ? (textRows + 1, rows) : nil
    }

    /// The editor's body, below the title field.
    var editorBodyArea: Rect {
        let area = contentArea
        let fields = supportsTags ? 6 : 5
        return Rect(top: area.top + fields, left: area.left, width: area.width, height: area.height - fields)
    }

    /// The columns the editor's body wraps at.
    var editorWrapWidth: Int { max(1, editorBodyArea.width - 1) }

    /// A note's body (left or above) and its images (right or below), under the title and date.
    func detailAreas(hasImages: Bool) -> (text: Rect, images: Rect?) {
        let area = contentArea
        let content = Rect(top: area.top + 3, left: area.left, width: area.width, height: area.height - 3)
        guard hasImages else { return (content, nil) }
        if content.width >= 100 {
            let textWidth = content.width / 2
            return (Rect(top: content.top, left: content.left, width: textWidth, height: content.height),
                    Rect(top: content.top, left: content.left + textWidth + 2, width: content.width - textWidth - 2, height: content.height))
        }
        let textHeight = max(3, content.height / 3)
        return (Rect(top: content.top, left: content.left, width: content.width, height: textHeight),
                Rect(top: content.top + textHeight + 1, left: content.left, width: content.width, height: content.height - textHeight - 1))
    }

    /// The help's lines, wrapped rather than cut on a narrow terminal.
    var helpLines: [String] {
        var lines = ["Keys", "", "Notes list",
                     "  ↑ ↓  j k        move            PgUp PgDn  Home End   page, first, last",
                     "  Enter           open the note   n          new note",
                     "  e               edit            d          delete (asks first)",
                     "  /               search titles\(supportsTags ? ", bodies and tags" : " and bodies") as you type; Esc clears",
                     "  S               sync through git (set up by uncloudnotes sync --remote URL)",
                     "  q  Ctrl-C       quit (asks first when a draft is unsaved)"]
        if supportsImages { lines.insert("  a               attach an image (path prompt: Tab completes, ~ works)", at: 7) }
        if supportsTags {
            lines.insert(contentsOf: ["  p               pin or unpin (pinned notes come first, marked [pin])",
                                      "  s               sort by date created or modified (the list shows that date)",
                                      "  t               show the notes of one tag (each with its count); Esc shows all"], at: 7)
        }
        lines.insert("  u               undo the last delete (until the next change)", at: 7)
        lines += ["", "Note", "  ↑ ↓  PgUp PgDn  scroll the body        Home End g G  top, bottom",
                  "  e               edit            d          delete          Esc q  back"]
        if supportsImages {
            lines.append("  ← →  [ ]        previous, next image    a  attach  x  delete the image")
            lines.append("  o               open the image in the system's viewer (xdg-open)")
        }
        if supportsCaptions { lines.append("  c               edit the image's caption") }
        lines += ["", "Editor",
                  supportsTags ? "  Tab             title, tags (comma-separated), body; in the body it inserts a tab"
                      : "  Tab             from the title to the body; in the body it inserts a tab",
                  "  Shift-Tab       back a field     Ctrl-S  save     Esc  cancel (asks before discarding)",
                  "  Ctrl-E          in the body: edit it in $VISUAL or $EDITOR, then come back",
                  "  Ctrl-Home Ctrl-End  in the body: its first line, its end",
                  "", "Text fields (title, body, search, prompts), as in the shell",
                  "  Ctrl-A Ctrl-E   start, end of the line (in the body Ctrl-E opens $EDITOR)",
                  "  Ctrl-K Ctrl-U   delete to the end, to the start of the line",
                  "  Ctrl-W          delete the word before the cursor",
                  "", "Anywhere", "  Ctrl-Z          suspend to the shell; fg comes back",
                  "", "Running as \(versionLabel). Store: \(storePath)"]
        return lines.flatMap { TextWrapper.wrap(Array($0), width: contentArea.width).map(\.text) }
    }

    /// The help's rows: all of the area when it fits whole, else one less for the "more" line.
    var helpRows: Int {
        helpLines.count <= contentArea.height ? contentArea.height : max(1, contentArea.height - 1)
    }

    var helpMaxScroll: Int { max(0, helpLines.count - helpRows) }
}
