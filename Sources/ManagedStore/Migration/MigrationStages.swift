import Foundation
internal import GRDB

/// The work of a copying migration, for progress: each mapping's source objects, counted once
/// in stage 1 and once in stage 2, and one more unit for validation.
struct MigrationWork {
    var done = 0
    var total = 1
    /// Source objects each entity mapping reads, by mapping index.
    var sourceCounts: [Int] = []
    /// The largest work a mapping is estimated at: the totals of all mappings cannot overflow.
    static let largestEstimate = 1 << 40
}

extension MigrationManager {
    /// Objects per batch of the per-object path: small, since objects may carry images.
    static let objectBatchSize = 200

    /// The SQL path of this migration, on the destination's connection.
    private var setBased: SetBasedMigration {
        SetBasedMigration(source: sourceStore.schema, destination: destinationStore.schema, mappingModel: mappingModel, plan: plan,
                          database: destinationStore.database)
    }

    // MARK: The three stages

    /// Runs the three stages, with the source at `sourceURL` attached to the destination.
    /// - Returns: the objects that kept their keys, and what they copied unchanged.
    func run(sourceURL: URL) throws -> KeptObjects {
        let mappings = mappingModel.entityMappings
        try attachSource(sourceURL)
        defer { detachSource() }
        try destinationStore.database.read(SourceRowCheck(schema: sourceStore.schema, attachedAs: "src",
                                                          path: sourceStore.url.path).run)
        try destinationStore.database.read(UnreadSourceObjects(source: sourceStore.schema, destination: destinationStore.model,
                                                               mapping: mappingModel, attachedAs: "src").run)
        var links: [[InsertLink]]?
        let setBased = setBased
        // Mappings keeping source keys raise their hierarchy's Z_MAX first, whatever runs before
        // them: no object made earlier can take one of their keys.
        for (index, instances) in plan.instances.enumerated() where plan.numbersFirst || plan.keepsSourceKeys.contains(index) {
            if case .setBased(let selection, let statement) = instances {
                try setBased.numberInstances(index, selection: selection, destination: statement.destination)
            }
        }
        // After the numbering: a numbered mapping's count is its association's, not another scan.
        work.sourceCounts = try mappings.indices.map(countSourceInstances)
        work.total = max(1, 2 * work.sourceCounts.reduce(0, +) + 1)
        if plan.numbersFirst {
            links = try setBased.makeInsertLinks()
        }
        // Rows go in first and the indexes are built after, unless objects are saved one by one,
        // whose saves read through the indexes.
        let deferredIndexes = plan.numbersFirst ? try DeferredIndexes.drop(in: destinationStore) : nil
        for (index, mapping) in mappings.enumerated() {
            currentEntityMapping = mapping
            let start = ContinuousClock.now
            try policies[index].beginEntityMapping(mapping, manager: self)
            try createDestinationInstances(index, links: links?[index] ?? [])
            try policies[index].endInstanceCreation(for: mapping, manager: self)
            tally.addTime(index, since: start)
        }
        try ExternalDataAdoption.adoptFiles(of: destinationStore, from: sourceStore)
        try deferredIndexes?.rebuild(in: destinationStore)
        for (index, mapping) in mappings.enumerated() {
            currentEntityMapping = mapping
            let start = ContinuousClock.now
            try createRelationships(index, onlyJoinTables: links != nil)
            try policies[index].endRelationshipCreation(for: mapping, manager: self)
            tally.addTime(index, since: start)
        }
        currentEntityMapping = nil
        try destinationStore.database.write { db in
            try UnownedTables.copy(from: "src", source: sourceStore.schema, destination: destinationStore.schema, in: db)
            try HistoryTranslation(source: sourceStore.schema, destination: destinationStore.schema, mapping: mappingModel).run(in: db)
        }
        report(.validating, nil)
        try MigrationValidation(store: destinationStore, validAttributes: plan.validAttributes, entitiesMade: plan.entitiesMade).run()
        for (index, mapping) in mappings.enumerated() {
            currentEntityMapping = mapping
            try policies[index].performCustomValidation(for: mapping, manager: self)
            try policies[index].endEntityMapping(mapping, manager: self)
        }
        currentEntityMapping = nil
        work.done = work.total
        report(.validating, nil)
        return plan.keptObjects(of: mappingModel)
    }

    private func attachSource(_ url: URL) throws {
        try destinationStore.database.writeWithoutTransaction { db in
            try db.attachForReading(url, as: "src")
            for (index, mapping) in mappingModel.entityMappings.enumerated() {
                let computed = try (policies[index] as? SetBasedMigrationPolicy)?.computedValues(for: mapping) ?? [:]
                for value in computed.values {
                    db.add(function: value.function.databaseFunction(argumentCount: value.arguments.count))
                }
            }
            try associations.create(in: db)
        }
    }

    /// Drops the temporary tables and detaches the source. A failure here hides nothing: temporary
    /// tables and the attachment belong to the connection, which is closed right after (or the
    /// file removed after a failure), and the migrated rows are committed already.
    private func detachSource() {
        try? destinationStore.database.writeWithoutTransaction { db in
            try associations.drop(in: db)
            for table in try String.fetchAll(db, sql: "SELECT name FROM temp.sqlite_master WHERE type = 'table' AND name LIKE 'MS\\_LINK\\_%' ESCAPE '\\'") {
                try db.execute(literal: "DROP TABLE temp.\(identifier: table)")
            }
            try db.execute(sql: "DETACH DATABASE src")
        }
    }

    /// The work of a mapping, for progress: its source objects, or for one keeping source keys,
    /// the span of its keys, an estimate (two steps down the source's keys instead of a scan of
    /// its rows; gaps left by deleted objects make it larger, never smaller). A mapping numbered
    /// already counts its association's rows, not the source's.
    private func countSourceInstances(_ index: Int) throws -> Int {
        guard let selection = plan.selections[index] else { return 0 }
        if plan.keepsSourceKeys.contains(index) {
            guard let (low, high) = try associations.keyBounds(of: index) else { return 0 }
            let (span, overflow) = high.subtractingReportingOverflow(low)
            return overflow ? MigrationWork.largestEstimate : Int(min(span, Int64(MigrationWork.largestEstimate)))
        }
        let numbered = plan.numbersFirst && plan.instances[index].isSetBased
        let rows: SQL = numbered ? AssociationTables.table(index) : selection.from
        return try destinationStore.database.read { db in
            try Int.fetchOne(db, SQLRequest(literal: "SELECT COUNT(*) FROM \(rows)")) ?? 0
        }
    }

    // MARK: Stage 1

    private func createDestinationInstances(_ index: Int, links: [InsertLink]) throws {
        let mapping = mappingModel.entityMappings[index]
        switch plan.instances[index] {
        case .nothing:
            return
        case .setBased(let selection, let statement):
            let setBased = setBased
            if !plan.numbersFirst && !plan.keepsSourceKeys.contains(index) {
                try setBased.numberInstances(index, selection: selection, destination: statement.destination)
            }
            try setBased.insertInstances(index, selection: selection, statement: statement, links: links) { [self] count in
                tally.count(index, read: count, written: count)
                try advance(by: count, .creatingObjects, mapping.name)
            }
        case .perObject(let selection):
            let evaluator = ExpressionEvaluator()
            try forEachSourceBatch(selection) { sources in
                for source in sources {
                    if let residual = selection.residual, try !evaluator.evaluate(residual, on: .object(source)) { continue }
                    try policies[index].createDestinationInstances(forSource: source, in: mapping, manager: self)
                }
                tally.count(index, read: sources.count, written: pendingAssociations.count)
                try flushDestination()
                try advance(by: sources.count, .creatingObjects, mapping.name)
            }
        }
    }

    /// Source objects of a selection, a batch at a time, by primary key.
    private func forEachSourceBatch(_ selection: SourceSelection, _ body: ([ManagedObject]) throws -> Void) throws {
        var last: Int64 = 0
        while true {
            let rows = try destinationStore.database.read { db in
                try Row.fetchAll(db, SQLRequest(literal: """
                    SELECT s.Z_PK, s.Z_ENT FROM \(selection.from) AND s.Z_PK > \(last) ORDER BY s.Z_PK LIMIT \(sql: String(Self.objectBatchSize))
                    """))
            }
            guard let final = rows.last else { return }
            last = try sourceContext.rowReader(final, table: selection.table).primaryKey()
            let ids = try rows.map { try sourceContext.rowReader($0, table: selection.table).objectID(in: sourceStore.schema) }
            try body(try sourceContext.materialize(ids))
            sourceContext.reset()
        }
    }

    /// Saves the destination objects made so far (validation comes at the end), records their
    /// associations, and lets them go.
    private func flushDestination() throws {
        try destinationContext.save(validating: false)
        let pairs = pendingAssociations.compactMap { pending -> AssociationTables.Pair? in
            guard let sourceKey = pending.source.primaryKey, let destinationKey = pending.destination.objectID.primaryKey,
                  let sourceEntity = sourceStore.schema.entity(named: pending.source.entityName),
                  let destinationEntity = destinationStore.schema.entity(named: pending.destination.entity.name) else { return nil }
            return AssociationTables.Pair(mapping: pending.mapping, sourceKey: sourceKey, sourceEntity: sourceEntity.number,
                                          destinationKey: destinationKey, destinationEntity: destinationEntity.number)
        }
        try associations.record(pairs)
        pendingAssociations = []
        destinationContext.reset()
    }

    // MARK: Stage 2

    /// `onlyJoinTables`: the foreign keys were computed when the rows were inserted.
    private func createRelationships(_ index: Int, onlyJoinTables: Bool) throws {
        let mapping = mappingModel.entityMappings[index]
        guard let destinationName = mapping.destinationEntityName else { return }
        var perObject = mapping.relationshipMappings
        if onlyJoinTables, let entity = destinationStore.schema.entity(named: destinationName) {
            perObject = perObject.filter {
                if case .joinTable? = entity.toManyStorage[$0.name] { true } else { false }
            }
        }
        if policies[index].createsRelationshipsFromMappingExpressions {
            // A relationship mapping without an expression sets nothing (a relationship new in
            // this version, as v5's Note.tags): no object needs visiting for it.
            perObject = perObject.filter { $0.valueExpression != nil }
            let setBased = setBased
            perObject = try perObject.filter { try !setBased.linkRelationship($0, of: index) }
            if perObject.isEmpty {
                // Progress counts source objects: the work stage 1 counted for this mapping.
                try advance(by: work.sourceCounts[index], .creatingRelationships, mapping.name)
                return
            }
        }
        var limited = mapping
        limited.relationshipMappings = perObject
        var last: Int64 = 0
        while true {
            let ids = try associations.destinations(of: index, after: last, limit: Self.objectBatchSize, in: destinationStore)
            guard let final = ids.last?.primaryKey else { break }
            last = final
            for destination in try destinationContext.materialize(ids) {
                try policies[index].createRelationships(forDestination: destination, in: limited, manager: self)
            }
            try destinationContext.save(validating: false)
            destinationContext.reset()
            sourceContext.reset()
            try advance(by: ids.count, .creatingRelationships, mapping.name)
        }
    }

    // MARK: Progress

    private func advance(by count: Int, _ stage: MigrationProgress.Stage, _ mapping: String?) throws {
        if cancellation?.isCancelled == true { throw MigrationError.cancelled }
        work.done = min(work.total, work.done + count)
        report(stage, mapping)
    }

    private func report(_ stage: MigrationProgress.Stage, _ mapping: String?) {
        migrationProgress = Double(work.done) / Double(work.total)
        progressHandler?(MigrationProgress(fraction: migrationProgress, stage: stage, entityMappingName: mapping))
    }
}
