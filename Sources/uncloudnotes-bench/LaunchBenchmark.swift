import Foundation
import ManagedStore
import NotesTerminalUI
import UnCloudNotesKit

/// The app's launch path on a current store, in process and without a terminal: open the store,
/// check it, fetch and lay out the first list screen; then later pages, and a search.
enum LaunchBenchmark {
    struct Result: Codable {
        var notes: Int
        var launchToFirstScreen: Double
        var laterPageWorst: Double
        var search: Double
        var searchMatches: Int
    }

    static func run(storeAt url: URL) throws -> Result {
        DisplayWidth.configureLocale()
        let start = DispatchTime.now()
        let stack = try UnCloudNotesStack(storeURL: url)
        guard case .current = try stack.migrator.state() else { throw BenchError("the launch store is not current") }
        let book = NoteBook(context: try stack.open())
        let app = try NotesApp(book: book, storePath: url.path, versionLabel: stack.versionLabel, colors: ColorSupport(depth: .indexed256))
        _ = app.render(width: 80, height: 24)
        let launch = seconds(since: start)

        var worst = 0.0
        for key in [Key.pageDown, .pageDown, .end, .pageUp, .home, .pageDown] {
            let pageStart = DispatchTime.now()
            _ = app.handle(key)
            _ = app.render(width: 80, height: 24)
            worst = max(worst, seconds(since: pageStart))
        }
        let searchStart = DispatchTime.now()
        let matches = try book.notes(matching: NoteBook.searchPredicate("CAFE")).count
        let search = seconds(since: searchStart)
        return Result(notes: try book.count(), launchToFirstScreen: launch, laterPageWorst: worst, search: search, searchMatches: matches)
    }

    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}
