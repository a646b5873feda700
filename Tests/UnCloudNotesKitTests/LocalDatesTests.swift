import Foundation
import Testing
import UnCloudNotesKit

/// Dates as people read them: in the local zone, with its offset, and read back exactly.
@Suite struct LocalDatesTests {
    /// 2026-05-12 06:13:00 UTC.
    private static let date = Date(timeIntervalSince1970: 1_778_566_380)
    private static let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    private static let newYork = TimeZone(identifier: "America/New_York")!

    @Test("ISO 8601 in the given zone with its offset, Z in UTC; to the millisecond when precise")
    func iso8601WithOffset() {
        #expect(LocalDates.iso8601(Self.date, in: Self.tokyo) == "2026-05-12T15:13:00+09:00")
        #expect(LocalDates.iso8601(Self.date, in: Self.newYork) == "2026-05-12T02:13:00-04:00")
        #expect(LocalDates.iso8601(Self.date, in: .gmt) == "2026-05-12T06:13:00Z")
        #expect(LocalDates.preciseISO8601(Self.date.addingTimeInterval(0.25), in: Self.tokyo) == "2026-05-12T15:13:00.250+09:00")
    }

    @Test("the exact form reads back as the very same Double, in any zone, whatever the fraction", arguments: [
        817_595_915.178, 817_595_915.178_123_4, 817_595_915, 0.5, 1e9 + 0.000_001, 817_595_915.999_999_9, 12.062_5,
    ])
    func exactRoundTrip(seconds: Double) {
        let date = Date(timeIntervalSinceReferenceDate: seconds)
        for zone in [Self.tokyo, Self.newYork, .gmt] {
            let text = LocalDates.exactISO8601(date, in: zone)
            #expect(LocalDates.parseISO8601(text)?.timeIntervalSinceReferenceDate == seconds, "\(text)")
        }
        #expect(LocalDates.exactISO8601(Date(timeIntervalSinceReferenceDate: 817_595_915.178), in: .gmt) == "2026-11-28T21:58:35.178Z")
        #expect(LocalDates.exactISO8601(Date(timeIntervalSinceReferenceDate: 817_595_915), in: Self.tokyo) == "2026-11-29T06:58:35+09:00")
    }

    @Test("dates as people say them are periods: since takes the start, until the end (a day whole)", arguments: [
        ("today", "2026-11-29T00:00:00+09:00", "2026-11-30T00:00:00+09:00"),
        ("yesterday", "2026-11-28T00:00:00+09:00", "2026-11-29T00:00:00+09:00"),
        ("3 days ago", "2026-11-26T00:00:00+09:00", "2026-11-27T00:00:00+09:00"),
        ("2 weeks ago", "2026-11-15T00:00:00+09:00", "2026-11-16T00:00:00+09:00"),
        ("last Monday", "2026-11-23T00:00:00+09:00", "2026-11-24T00:00:00+09:00"),
        ("sunday", "2026-11-22T00:00:00+09:00", "2026-11-23T00:00:00+09:00"),
        ("2026-11", "2026-11-01T00:00:00+09:00", "2026-12-01T00:00:00+09:00"),
        ("2026-11-28", "2026-11-28T00:00:00+09:00", "2026-11-29T00:00:00+09:00"),
        ("2026-11-28T10:00:00Z", "2026-11-28T19:00:00+09:00", "2026-11-28T19:00:00+09:00"),
    ])
    func spokenDates(text: String, start: String, end: String) throws {
        // A Sunday afternoon in Tokyo.
        let now = try #require(LocalDates.parseISO8601("2026-11-29T15:30:00+09:00"))
        let period = try #require(DatePeriod(text, now: now, in: Self.tokyo))
        #expect(LocalDates.iso8601(period.start, in: Self.tokyo) == start)
        #expect(LocalDates.iso8601(period.end, in: Self.tokyo) == end)
    }

    @Test("what is no date is refused", arguments: ["tomorrow", "2026-13", "2026-02-30", "-3 days ago", "3 fortnights ago", "last", "", "2026-1-5", "１２３４-05"])
    func notDates(text: String) {
        #expect(DatePeriod(text) == nil)
    }

    @Test("the app's form with the zone names the zone's offset and the local hour")
    func shortWithZone() {
        let tokyo = LocalDates.shortWithZone(Self.date, in: Self.tokyo)
        #expect(tokyo.contains("GMT+9") && tokyo.contains("2026") && tokyo.contains("3:13"), "\(tokyo)")
        #expect(LocalDates.shortWithZone(Self.date, in: Self.newYork).contains("GMT-4"))
    }

    @Test("what is written in any zone reads back as the same moment; UTC text of older exports too")
    func readsBack() {
        for zone in [Self.tokyo, Self.newYork, .gmt] {
            #expect(LocalDates.parseISO8601(LocalDates.iso8601(Self.date, in: zone)) == Self.date)
            #expect(LocalDates.parseISO8601(LocalDates.preciseISO8601(Self.date.addingTimeInterval(0.5), in: zone))
                    == Self.date.addingTimeInterval(0.5))
        }
        #expect(LocalDates.parseISO8601("2026-05-12T06:13:00Z") == Self.date)
        #expect(LocalDates.parseISO8601("12 May 2026") == nil)
        #expect(LocalDates.parseISO8601("") == nil)
    }
}
