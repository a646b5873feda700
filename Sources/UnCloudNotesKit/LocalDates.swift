import Foundation

/// How every date a person reads is written, by the command line, the exports and the app alike:
/// in the local time zone (`TZ`, else the system's). ISO 8601 text carries the zone's offset
/// (`2026-05-12T15:13:00+09:00`), so the moment stays exact wherever the text goes; Core Data's
/// raw seconds appear only where asked for (`store export --raw-dates`).
public enum LocalDates {
    /// ISO 8601 to the second, with the zone's offset (`Z` in UTC): `notes list`, `notes show`,
    /// their JSON, the exports.
    public static func iso8601(_ date: Date, in timeZone: TimeZone = .current) -> String {
        date.formatted(style(timeZone, fractionalSeconds: false))
    }

    /// ISO 8601 to the millisecond, for output that compares stores (`store export`), where two
    /// dates within one second must still differ.
    public static func preciseISO8601(_ date: Date, in timeZone: TimeZone = .current) -> String {
        date.formatted(style(timeZone, fractionalSeconds: true))
    }

    /// "May 12, 2026 at 3:13 PM", or however the user's locale writes it: the full-screen app's list.
    public static func short(_ date: Date) -> String {
        date.formatted(date: .abbreviated, time: .shortened)
    }

    /// The same with the zone's offset ("May 12, 2026 at 3:13 PM GMT+9"): a note's own screen.
    public static func shortWithZone(_ date: Date, in timeZone: TimeZone = .current) -> String {
        var style = Date.FormatStyle.dateTime.year().month(.abbreviated).day().hour().minute().timeZone(.localizedGMT(.short))
        style.timeZone = timeZone
        return date.formatted(style)
    }

    /// Reads what `iso8601` and `preciseISO8601` write in any zone, and the UTC form (`…Z`) of
    /// exports written before dates were local; nil for other text.
    public static func parseISO8601(_ text: String) -> Date? {
        [true, false].lazy.compactMap { try? style(.gmt, fractionalSeconds: $0).parse(text) }.first
    }

    /// A moment given on the command line (`notes list --since`): ISO 8601 as `parseISO8601`
    /// reads it, or a day (`2026-05-12`), which means its local midnight; nil for other text.
    public static func parseMoment(_ text: String, in timeZone: TimeZone = .current) -> Date? {
        if let date = parseISO8601(text) { return date }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        let components = DateComponents(year: year, month: month, day: day)
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }

    private static func style(_ timeZone: TimeZone, fractionalSeconds: Bool) -> Date.ISO8601FormatStyle {
        Date.ISO8601FormatStyle(timeZoneSeparator: .colon, includingFractionalSeconds: fractionalSeconds, timeZone: timeZone)
    }
}
