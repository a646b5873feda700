import Foundation
import UnCloudNotesKit

/// How the screens write a note's date. The app uses the user's locale and time zone through
/// `LocalDates`, the one place dates are formatted; tests fix a verbatim pattern, so golden
/// screens do not change with the toolchain's locale data.
public struct DateText: Sendable {
    private let format: @Sendable (Date) -> String
    private let zonedFormat: @Sendable (Date) -> String

    /// - Parameter zoned: the form with the time zone, for the note's own screen (the list's
    ///   form when nil).
    public init(_ format: @escaping @Sendable (Date) -> String, zoned: (@Sendable (Date) -> String)? = nil) {
        self.format = format
        self.zonedFormat = zoned ?? format
    }

    /// "May 12, 2026 at 6:13 AM" in the list, "May 12, 2026 at 6:13 AM GMT+9" on the note's
    /// screen, or however the user's locale writes them.
    public static let userLocale = DateText({ LocalDates.short($0) }, zoned: { LocalDates.shortWithZone($0) })

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

    /// With the time zone, where there is room for it; "—" for a note without a date.
    func zoned(_ date: Date?) -> String {
        date.map(zonedFormat) ?? "—"
    }
}
