import Foundation

/// The Migrations table of the report, apart from `markdown()` so that `migrations` (the part run
/// alone) prints the same rows the full report writes.
extension BenchReport {
    /// The section: its heading, the table's header and one row per measured migration of every size.
    static func migrationsSection(_ sizes: [Size]) -> [String] {
        var lines = ["", "## Migrations", "",
                     "Times are median (min-max). Ratios compare medians.", "",
                     "| notes | images | migration | engine | in-place SQL | engine / SQL | cp + fsync | VACUUM INTO | engine / VACUUM INTO | VACUUM INTO + new indexes | engine / that | engine writes | SQL writes | store | engine peak memory | backup |",
                     "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
        for size in sizes {
            for m in size.migrations {
                let name = m.to - m.from > 1 ? "**\(m.name)**" : m.name
                lines.append("| \(size.notes) | \(m.images) | \(name) | \(time(m.engineSeconds)) | \(time(m.baselineSeconds)) | "
                    + "\(String(format: "%.2f", m.ratio)) | \(time(m.copyFloorSeconds)) | \(time(m.vacuumIntoFloorSeconds)) | "
                    + "\(String(format: "%.2f", m.vacuumIntoRatio)) | "
                    + "\(m.indexedFloorSeconds.map { "\(time($0)) (\(m.newIndexesText))" } ?? "-") | "
                    + "\(m.honestFloorRatio.map { String(format: "%.2f", $0) } ?? "-") | "
                    + "\(bytes(m.engineBytesWritten.median)) | \(bytes(m.baselineBytesWritten.median)) | "
                    + "\(bytes(Double(m.storeBytesBefore))) | \(bytes(m.enginePeakMemoryBytes.max)) | \(m.engineBackup ?? "none") |")
            }
        }
        return lines
    }
}
