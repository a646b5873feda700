import Foundation

/// A compact table of a store's objects, one block per entity, for walkthroughs and quick looks:
/// long texts are cut, binary values shown by size, relationships by target, dates as the
/// caller writes them.
public enum StoreTable {
    /// The objects of every concrete entity as text tables, at most `rowLimit` rows each.
    /// - Parameter cellWidth: wide enough for an ISO 8601 date with its zone's offset.
    /// - Parameter context: the context the store is read through.
    /// - Parameter dateText: writes a date as text.
    /// - Parameter rowLimit: the most rows shown per entity; a note says how many more there are.
    public static func lines(for context: ManagedObjectContext, dateText: (Date) -> String, cellWidth: Int = 25,
                             rowLimit: Int = 12) throws -> [String] {
        var lines: [String] = []
        for entity in context.model.entities.sorted(by: { $0.name < $1.name }) where !entity.isAbstract {
            let objects = try context.fetch(FetchRequest(entityName: entity.name, fetchLimit: rowLimit, includesSubentities: false))
            let count = try context.count(FetchRequest(entityName: entity.name, includesSubentities: false))
            let attributes = context.model.allAttributes(of: entity.name).filter { !$0.isTransient }
            let toOnes = context.model.allRelationships(of: entity.name).filter { !$0.isToMany && !$0.isTransient }
            let header = ["pk"] + attributes.map(\.name) + toOnes.map(\.name)
            let rows = objects.map { object -> [String] in
                [String(object.objectID.primaryKey ?? 0)]
                    + attributes.map { describe(object.value(forKey: $0.name), dateText: dateText) }
                    + toOnes.map { relationship in
                        object.object(forKey: relationship.name).map { "\($0.entity.name)/\($0.objectID.primaryKey ?? 0)" } ?? "nil"
                    }
            }
            lines.append("\(entity.name) (\(count) row\(count == 1 ? "" : "s"))")
            let widths = header.indices.map { column in
                min(cellWidth, ([header[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0)
            }
            func format(_ cells: [String]) -> String {
                "  " + zip(cells, widths).map { cell, width in
                    let cut = cell.count > width ? String(cell.prefix(width - 1)) + "…" : cell
                    return cut + String(repeating: " ", count: max(0, width - cut.count))
                }.joined(separator: " │ ")
            }
            lines.append(format(header))
            lines.append("  " + widths.map { String(repeating: "─", count: $0) }.joined(separator: "─┼─"))
            lines += rows.map(format)
            if count > rows.count { lines.append("  … and \(count - rows.count) more") }
        }
        return lines
    }

    private static func describe(_ value: AttributeValue?, dateText: (Date) -> String) -> String {
        switch value {
        case nil: return "nil"
        case .data(let bytes)?: return "<\(bytes.count) bytes>"
        case .string(let text)?: return text.replacingOccurrences(of: "\n", with: "⏎")
        case .date(let date)?: return dateText(date)
        case let value?: return value.displayText
        }
    }
}
