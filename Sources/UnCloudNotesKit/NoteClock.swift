import Foundation

/// The time the app stamps on notes and images, to the millisecond: what a mirror file carries
/// (`YYYY-MM-DDTHH:MM:SS.fffZ`), so that a note's dates reach every machine a sync reaches
/// unchanged, and an export writes at most three digits of the second.
public enum NoteClock {
    public static func now() -> Date {
        // The same arithmetic as reading a mirror's date: whole milliseconds since 1970.
        Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }
}
