import Foundation
import UnCloudNotesKit

/// A date given on the command line: ISO 8601 (`2026-05-12T15:13:00+09:00`) or a day
/// (`2026-05-12`, local midnight), read with a message that says what is accepted.
enum MomentArgument {
    static func parse(_ text: String) throws -> Date {
        guard let date = LocalDates.parseMoment(text) else { throw MomentArgumentError.notADate(text) }
        return date
    }
}

/// Why a date given on the command line was refused (ArgumentParser puts it after "The value
/// '…' is invalid for '<name>': ").
enum MomentArgumentError: Error, CustomStringConvertible {
    case notADate(String)

    var description: String {
        switch self {
        case .notADate: "give a day (2026-05-12) or a moment in ISO 8601 (2026-05-12T15:13:00+02:00)"
        }
    }
}
