import Foundation

/// What one pass of a migration did, to see where the time goes: for each entity mapping, the
/// source objects it read, the destination objects it made and the time it took (both stages:
/// creating the objects and linking their relationships), and the pass's whole time. An
/// in-place pass has no entity mappings: it reads no objects, and writes only the rows its SQL
/// changes (defaults written where required attributes appear).
public struct MigrationStatistics: Sendable, Equatable {
    /// One entity mapping's share of a copying pass.
    public struct EntityMapping: Sendable, Equatable {
        public var name: String
        /// Source objects the mapping selected (its filter applied).
        public var rowsRead: Int
        /// Destination objects it made.
        public var rowsWritten: Int
        /// Wall-clock time in both stages; validation, shared by all mappings, is in the pass's time only.
        public var seconds: Double

        public init(name: String, rowsRead: Int, rowsWritten: Int, seconds: Double) {
            self.name = name
            self.rowsRead = rowsRead
            self.rowsWritten = rowsWritten
            self.seconds = seconds
        }
    }

    /// The plan's steps the pass ran (more than one when they were composed into one pass).
    public var steps: Range<Int>
    public var isInPlace: Bool
    /// Wall-clock time of the whole pass: opening, both stages, indexes, validation.
    public var seconds: Double
    /// Objects read (a copying pass) — an in-place pass reads none.
    public var rowsRead: Int
    /// Objects made (a copying pass), or rows its statements changed (an in-place pass).
    public var rowsWritten: Int
    public var entityMappings: [EntityMapping]

    /// A copying pass's statistics: its totals are its mappings'.
    public init(steps: Range<Int>, seconds: Double, entityMappings: [EntityMapping]) {
        self.steps = steps
        isInPlace = false
        self.seconds = seconds
        rowsRead = entityMappings.reduce(0) { $0 + $1.rowsRead }
        rowsWritten = entityMappings.reduce(0) { $0 + $1.rowsWritten }
        self.entityMappings = entityMappings
    }

    /// An in-place pass's statistics: rows changed by its SQL, no mappings.
    init(inPlaceStep step: Int, seconds: Double, rowsWritten: Int) {
        steps = step..<(step + 1)
        isInPlace = true
        self.seconds = seconds
        rowsRead = 0
        self.rowsWritten = rowsWritten
        entityMappings = []
    }
}

/// Times and counts a migration manager's entity mappings as it runs them.
struct EntityMappingTally {
    private(set) var mappings: [MigrationStatistics.EntityMapping]

    init(names: [String]) {
        mappings = names.map { MigrationStatistics.EntityMapping(name: $0, rowsRead: 0, rowsWritten: 0, seconds: 0) }
    }

    /// Adds the time since `start` to mapping `index`'s.
    mutating func addTime(_ index: Int, since start: ContinuousClock.Instant) {
        mappings[index].seconds += (ContinuousClock.now - start).inSeconds
    }

    mutating func count(_ index: Int, read: Int, written: Int) {
        mappings[index].rowsRead += read
        mappings[index].rowsWritten += written
    }
}

extension Duration {
    /// The duration in seconds, as the statistics give times.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
