extension ModelReport {
    /// The human-readable listing of `model show`: every version (the current one marked with `*`),
    /// its entities with parent and version hash, and one aligned line per property.
    public var text: String {
        var lines = ["\(model): \(versions.count) version\(versions.count == 1 ? "" : "s"), current \(currentVersion)",
                     "source: \(source)"]
        for version in versions {
            lines.append("")
            lines.append("\(version.isCurrent ? "*" : " ") \(version.name)\(version.isCurrent ? "  (current)" : "")")
            if !version.versionIdentifier.isEmpty {
                lines.append("    version identifier: \(version.versionIdentifier)")
            }
            lines.append("    checksum: \(version.versionChecksum)")
            for entity in version.entities {
                lines.append(contentsOf: Self.lines(for: entity))
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func lines(for entity: Entity) -> [String] {
        var heading = "    entity \(entity.name)"
        if let parent = entity.parent { heading += " : \(parent)" }
        if entity.isAbstract { heading += " (abstract)" }
        var lines = [heading, "      hash \(entity.versionHash)"]
        let rows = entity.attributes.map { [$0.name, $0.type, details(of: $0)] }
            + entity.relationships.map { [$0.name, "-> \($0.destination)", details(of: $0)] }
        let nameWidth = rows.map { $0[0].count }.max() ?? 0
        let typeWidth = rows.map { $0[1].count }.max() ?? 0
        for row in rows {
            let line = "      " + row[0].padded(to: nameWidth) + "  " + row[1].padded(to: typeWidth) + "  " + row[2]
            lines.append(String(line.reversed().drop(while: { $0 == " " }).reversed()))
        }
        for constraint in entity.uniquenessConstraints {
            lines.append("      unique (\(constraint.joined(separator: ", ")))")
        }
        for index in entity.fetchIndexes {
            lines.append("      fetch index \(index.name) (\(index.elements.joined(separator: ", ")))")
        }
        return lines
    }

    private static func details(of attribute: Attribute) -> String {
        var parts = [attribute.isOptional ? "optional" : "required"]
        if attribute.isTransient { parts.append("transient") }
        if let value = attribute.defaultValue { parts.append("default \(value)") }
        if let transformer = attribute.valueTransformer { parts.append("transformer \(transformer)") }
        if attribute.allowsExternalBinaryDataStorage { parts.append("external storage") }
        if attribute.preserveAfterDeletion { parts.append("preserved after deletion") }
        if attribute.isIndexed { parts.append("indexed") }
        if let identifier = attribute.renamingIdentifier { parts.append("renaming id \(identifier)") }
        return parts.joined(separator: ", ")
    }

    private static func details(of relationship: Relationship) -> String {
        var parts = [relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one",
                     relationship.isOptional ? "optional" : "required"]
        if relationship.isTransient { parts.append("transient") }
        if relationship.isToMany && (relationship.minCount > 0 || relationship.maxCount > 0) {
            parts.append("count \(relationship.minCount)...\(relationship.maxCount == 0 ? "" : String(relationship.maxCount))")
        }
        if let inverse = relationship.inverse { parts.append("inverse \(inverse)") }
        parts.append("delete \(relationship.deleteRule)")
        if let identifier = relationship.renamingIdentifier { parts.append("renaming id \(identifier)") }
        return parts.joined(separator: ", ")
    }
}

private extension String {
    func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
