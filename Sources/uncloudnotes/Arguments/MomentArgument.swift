import Foundation
import UnCloudNotesKit

/// A date given on the command line, as people say it (`DatePeriod`): `--since` takes the
/// start of the period named, `--until` its end, with a message that says what is accepted.
enum MomentArgument {
    /// For `--since`: the period's first moment.
    static func start(_ text: String) throws -> Date {
        try period(text).start
    }

    /// For `--until` (notes dated before it): the end of the period, so a day is included whole.
    static func end(_ text: String) throws -> Date {
        try period(text).end
    }

    private static func period(_ text: String) throws -> DatePeriod {
        guard let period = DatePeriod(text) else { throw MomentArgumentError.notADate(text) }
        return period
    }
}

/// Why a date given on the command line was refused (ArgumentParser puts it after "The value
/// '…' is invalid for '<name>': ").
enum MomentArgumentError: Error, CustomStringConvertible {
    case notADate(String)

    var description: String {
        switch self {
        case .notADate:
            "give a day (2026-05-12), a month (2026-05), today, yesterday, 3 days ago, 2 weeks ago, last monday, "
                + "or a moment in ISO 8601 (2026-05-12T15:13:00+02:00)"
        }
    }
}
