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

    /// ISO 8601 with as many digits of the second as the store's value needs to come back
    /// exactly (`2026-11-28T10:38:35.178+01:00`; none for a whole second): the JSON export, so
    /// that an export and import keep every date as the store holds it.
    public static func exactISO8601(_ date: Date, in timeZone: TimeZone = .current) -> String {
        let seconds = date.timeIntervalSinceReferenceDate
        let whole = seconds.rounded(.down)
        // Swift writes a Double in the fewest digits that read back as the same Double.
        let written = String(seconds)
        guard whole != seconds, seconds >= 0, !written.contains("e"), let point = written.firstIndex(of: ".") else {
            return whole == seconds ? iso8601(date, in: timeZone) : preciseISO8601(date, in: timeZone)
        }
        let text = iso8601(Date(timeIntervalSinceReferenceDate: whole), in: timeZone)
        let zone = text.lastIndex { $0 == "Z" || $0 == "+" || $0 == "-" } ?? text.endIndex
        return String(text[..<zone]) + written[point...] + text[zone...]
    }

    /// Reads what `iso8601`, `preciseISO8601` and `exactISO8601` write in any zone, and the UTC
    /// form (`…Z`) of exports written before dates were local; nil for other text.
    public static func parseISO8601(_ text: String) -> Date? {
        if let exact = parseManyDigitSecond(text) { return exact }
        // Each form is tried in turn, the one without a fraction first (a fraction was read above);
        // text that is neither is nil (documented above).
        return [false, true].lazy.compactMap { try? style(.gmt, fractionalSeconds: $0).parse(text) }.first
    }

    /// A second's fraction of any length (`…:35.1781234+01:00`), read to the nearest Double of
    /// the whole decimal; nil when the text has no fraction.
    private static func parseManyDigitSecond(_ text: String) -> Date? {
        guard let time = text.firstIndex(of: "T"), let point = text[time...].firstIndex(of: ".") else { return nil }
        let digits = text[text.index(after: point)...].prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty,
              // Not a date with a fraction: nil, and the caller tries the other forms.
              let whole = try? style(.gmt, fractionalSeconds: false).parse(String(text[..<point]) + text[digits.endIndex...])
        else { return nil }
        let wholeSeconds = whole.timeIntervalSinceReferenceDate
        guard wholeSeconds >= 0, let seconds = Double("\(Int64(wholeSeconds)).\(digits)") else { return nil }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    private static func style(_ timeZone: TimeZone, fractionalSeconds: Bool) -> Date.ISO8601FormatStyle {
        Date.ISO8601FormatStyle(timeZoneSeparator: .colon, includingFractionalSeconds: fractionalSeconds, timeZone: timeZone)
    }
}
