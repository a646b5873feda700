import Foundation

/// A date as people say it on the command line (as jrnl reads them): a stretch of local time
/// with a start and an end, so that `--since` takes its start and `--until` its end, and
/// `--until 2026-11-28` includes that whole day.
public struct DatePeriod: Equatable, Sendable {
    /// The first moment in the period.
    public let start: Date
    /// The first moment after it (equal to `start` for an exact moment).
    public let end: Date

    /// Reads, in `timeZone` and relative to `now`:
    /// - ISO 8601 (`2026-05-12T15:13:00+09:00`): that moment;
    /// - a day (`2026-05-12`) or a month (`2026-05`);
    /// - `today`, `yesterday`, `N days ago`, `N weeks ago` (that day);
    /// - `monday` … `sunday` or `last monday`: the latest such day before today.
    /// Nil for other text.
    public init?(_ text: String, now: Date = Date(), in timeZone: TimeZone = .current) {
        if let moment = LocalDates.parseISO8601(text) {
            (start, end) = (moment, moment)
            return
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let words = text.lowercased().split(separator: " ").map(String.init)
        let unit: Calendar.Component
        let first: Date?
        switch words {
        case ["today"]:
            (unit, first) = (.day, calendar.startOfDay(for: now))
        case ["yesterday"]:
            (unit, first) = (.day, calendar.date(byAdding: .day, value: -1, to: calendar.startOfDay(for: now)))
        case let words where words.count == 3 && words[2] == "ago" && Int(words[0]).map({ $0 >= 0 }) == true:
            guard let count = Int(words[0]), let step = Self.daysIn(words[1]) else { return nil }
            (unit, first) = (.day, calendar.date(byAdding: .day, value: -count * step, to: calendar.startOfDay(for: now)))
        case let words where (words.count == 1 || (words.count == 2 && words[0] == "last")) && Self.weekdays.contains(words.last ?? ""):
            guard let weekday = Self.weekdays.firstIndex(of: words.last ?? "") else { return nil }
            let today = calendar.startOfDay(for: now)
            let back = (calendar.component(.weekday, from: today) - 1 - weekday + 7) % 7
            (unit, first) = (.day, calendar.date(byAdding: .day, value: -(back == 0 ? 7 : back), to: today))
        default:
            guard let (components, component) = Self.dayOrMonth(text), components.isValidDate(in: calendar) else { return nil }
            (unit, first) = (component, calendar.date(from: components))
        }
        guard let first, let next = calendar.date(byAdding: unit, value: 1, to: first) else { return nil }
        (start, end) = (first, next)
    }

    /// Sunday first, as `Calendar`'s weekday numbers count.
    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    private static func daysIn(_ unit: String) -> Int? {
        switch unit {
        case "day", "days": 1
        case "week", "weeks": 7
        default: nil
        }
    }

    /// `2026-05-12` (a day) or `2026-05` (a month).
    private static func dayOrMonth(_ text: String) -> (DateComponents, Calendar.Component)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts[0].count == 4, parts.dropFirst().allSatisfy({ $0.count == 2 }),
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) }), let year = Int(parts[0]), let month = Int(parts[1]) else { return nil }
        guard parts.count == 3 else { return (DateComponents(year: year, month: month, day: 1), .month) }
        guard let day = Int(parts[2]) else { return nil }
        return (DateComponents(year: year, month: month, day: day), .day)
    }
}
