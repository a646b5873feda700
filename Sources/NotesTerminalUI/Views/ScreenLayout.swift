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

    /// The help's rows: all of the area when it fits whole, else one less for the "more" line.
    var helpRows: Int {
        helpLines.count <= contentArea.height ? contentArea.height : max(1, contentArea.height - 1)
    }

    var helpMaxScroll: Int { max(0, helpLines.count - helpRows) }
}
