import Foundation
import UnCloudNotesKit

/// How the screens write a note's date. The app uses the user's locale and time zone
/// (`LocalDates.short`, the one place dates are formatted); tests fix a verbatim pattern, so golden screens do not change with the
/// toolchain's locale data.
public struct DateText: Sendable {
    private let format: @Sendable (Date) -> String

    public init(_ format: @escaping @Sendable (Date) -> String) {
        self.format = format
    }

    /// "May 12, 2026 at 6:13 AM", or however the user's locale writes it.
    public static let userLocale = DateText { LocalDates.short($0) }

    /// Formats one date on another thread, so the locale's patterns are loaded while the program
    /// does other work: the first use builds ICU's pattern generator (several milliseconds),
    /// which the first paint would otherwise wait for. Formatters are cached process-wide.
    public func prepareInBackground() {
        let format = self.format
        Thread.detachNewThread { _ = format(Date()) }
    }

    /// "—" for a note without a date.
    func callAsFunction(_ date: Date?) -> String {
        date.map(format) ?? "—"
    }
}
