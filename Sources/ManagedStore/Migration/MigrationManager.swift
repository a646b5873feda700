import Foundation
internal import GRDB

/// Migrates a store with a mapping model, in Core Data's three stages: create the destination
/// objects (attributes), recreate the relationships, validate. The destination is a new file,
/// written as scratch (no journal, no syncs: the caller syncs it); the source is only read, so a
/// failure leaves it exactly as it was (and the new file is removed).
///
/// Entity mappings that SQL can express (plain `$source` key paths, constants, the
/// `destinationInstances…` function over a key path, SQL-able filters) run set-based, as
/// `INSERT … SELECT` between the attached source and the destination; custom policies and other
/// expressions run object by object. Either way work proceeds in batches, and the association
/// between source and destination objects lives in temporary SQLite tables, so memory stays flat
/// however many objects there are.
public final class MigrationManager: KeyValueReadable, ExpressionFunctionTarget {
    public let mappingModel: MappingModel
    public let sourceModel: ManagedObjectModel
    public let destinationModel: ManagedObjectModel
    /// Read-only context on the source store.
    public let sourceContext: ManagedObjectContext
    /// Context on the new destination store.
    public let destinationContext: ManagedObjectContext
    public private(set) var currentEntityMapping: EntityMapping?
    /// Of the whole migration, 0...1.
    public private(set) var migrationProgress: Double = 0

    let sourceStore: PersistentStore
    let destinationStore: PersistentStore
    let policies: [EntityMigrationPolicy]
    /// Rows per SQL batch of the set-based path.
    static let batchSize = 2_000
    /// Objects per batch of the per-object path: small, since objects may carry images.
    static let objectBatchSize = 200
    private let progressHandler: ((MigrationProgress) -> Void)?
    private let cancellation: MigrationCancellation?
    private var pendingAssociations: [(source: ObjectID, destination: ManagedObject, mapping: Int)] = []
    private var workDone = 0
    private var workTotal = 1
    /// The largest work a mapping is estimated at: the totals of all mappings cannot overflow.
    private static let largestEstimate = 1 << 40
    /// Source objects each entity mapping reads, by mapping index.
    private var sourceCounts: [Int] = []
    /// Mappings whose destination objects keep their source objects' keys: see `keepingSourceKeys`.
    private(set) var keepsSourceKeys: Set<Int> = []
    /// Objects read and made, and time taken, by each entity mapping.
    private var tally: EntityMappingTally

    /// Migrates the store at `sourceURL` (of `sourceModel`) into a new store at `destinationURL`.
    public static func migrateStore(from sourceURL: URL, sourceModel: ManagedObjectModel,
                                    to destinationURL: URL, destinationModel: ManagedObjectModel,
                                    mappingModel: MappingModel, policies: MigrationPolicyRegistry = MigrationPolicyRegistry(),
                                    options: StoreOptions = StoreOptions(),
                                    progress: ((MigrationProgress) -> Void)? = nil,
                                    cancellation: MigrationCancellation? = nil) throws {
        let resolved = try mappingModel.entityMappings.map { try policies.makePolicy(named: $0.policyClassName, for: $0.name) }
        try migrateStore(from: sourceURL, sourceModel: sourceModel, to: destinationURL, destinationModel: destinationModel,
                         mappingModel: mappingModel, resolvedPolicies: resolved, options: options, progress: progress,
                         cancellation: cancellation)
    }

    /// The same, with the policy of each entity mapping given (a composed chain's, say).
    /// - Returns: the objects that kept their keys and the attributes copied unchanged, and what
    ///   each entity mapping read, made and took.
    @discardableResult
    static func migrateStore(from sourceURL: URL, sourceModel: ManagedObjectModel,
                             to destinationURL: URL, destinationModel: ManagedObjectModel,
                             mappingModel: MappingModel, resolvedPolicies resolved: [EntityMigrationPolicy],
                             options: StoreOptions, progress: ((MigrationProgress) -> Void)?,
                             cancellation: MigrationCancellation?) throws -> (kept: KeptObjects, statistics: [MigrationStatistics.EntityMapping]) {
        try checkEntities(of: mappingModel, source: sourceModel, destination: destinationModel)
        guard !FileManager.default.fileExists(atPath: destinationURL.path) else {
            throw MigrationError.file(path: destinationURL.path, reason: "a file is already there; the migration writes a new store")
        }
        // A migration keeps the source's history as it is (copied with the unowned tables) and
        // records none of its own.
        var options = options
        options.leavesHistoryAsIs = true
        var readOnly = options
        readOnly.isReadOnly = true
        let sourceStore = try PersistentStore.open(at: sourceURL, model: sourceModel, options: readOnly)
        var destinationStore: PersistentStore?
        let destinationFolderExisted = ExternalDataFolder(storeAt: StorePath.real(destinationURL)).supportFolderExists
        do {
            let destination = try PersistentStore.create(at: destinationURL, model: destinationModel,
                                                         storeUUID: sourceStore.metadata.storeUUID, options: options)
            destinationStore = destination
            try useAsScratch(destination, sizedFor: sourceURL)
            let manager = MigrationManager(mappingModel: mappingModel, sourceStore: sourceStore, destinationStore: destination,
                                           policies: resolved, progress: progress, cancellation: cancellation)
            let kept = try manager.run(sourceURL: sourceURL)
            try destination.database.writeWithoutTransaction { db in
                _ = try Row.fetchAll(db, sql: "PRAGMA journal_mode = \(options.journalMode.rawValue)")
            }
            try destination.close()
            try sourceStore.close()
            return (kept, manager.tally.mappings)
        } catch {
            // The migration has failed already and its error is the one to report: the source was
            // opened read-only and the destination's files are removed next, so a failed close
            // loses nothing.
            try? destinationStore?.close()
            try? sourceStore.close()
            StoreFiles(url: destinationURL).remove()
            ExternalDataFolder.removeAfterFailedCopy(to: destinationURL, existedBefore: destinationFolderExisted)
            // A store error names its file and what differs in it: callers react to it as it is.
            if error is MigrationError || error is StoreError { throw error }
            throw MigrationError.failed(from: sourceModel.name, to: destinationModel.name, cause: error)
        }
    }

    /// The new file is scratch until the migration is complete (a failure removes it), so it is
    /// written without a journal or syncs, every byte once, with a page cache sized for the work.
    /// The caller syncs it once before relying on it; it leaves in the store's journal mode.
    private static func useAsScratch(_ store: PersistentStore, sizedFor sourceURL: URL) throws {
        // The size only tunes the page cache: unreadable, it gets the smallest one, and the
        // source's real read errors come from opening it.
        let sourceBytes = (try? FileManager.default.attributesOfItem(atPath: sourceURL.path)[.size] as? Int) ?? 0
        let cacheKiB = min(max(sourceBytes / 1024, 2048), scratchCacheLimitKiB)
        try store.database.writeWithoutTransaction { db in
            _ = try Row.fetchAll(db, sql: "PRAGMA journal_mode = OFF")
            try db.execute(sql: "PRAGMA synchronous = OFF")
            try db.execute(sql: "PRAGMA cache_size = -\(cacheKiB)")
        }
    }

    /// The largest page cache of a new file: rows go in in key order, so a bigger cache bought no
    /// time in the benchmark (16 MB cost 27 MB of peak memory at 10,000 notes with big images).
    static let scratchCacheLimitKiB = 4 * 1024

    private init(mappingModel: MappingModel, sourceStore: PersistentStore, destinationStore: PersistentStore,
                 policies: [EntityMigrationPolicy], progress: ((MigrationProgress) -> Void)?, cancellation: MigrationCancellation?) {
        self.mappingModel = mappingModel
        self.sourceModel = sourceStore.model
        self.destinationModel = destinationStore.model
        self.sourceStore = sourceStore
        self.destinationStore = destinationStore
        self.sourceContext = ManagedObjectContext(store: sourceStore)
        self.destinationContext = ManagedObjectContext(store: destinationStore)
        self.policies = policies
        self.progressHandler = progress
        self.cancellation = cancellation
        tally = EntityMappingTally(names: mappingModel.entityMappings.map(\.name))
    }

    private static func checkEntities(of mapping: MappingModel, source: ManagedObjectModel, destination: ManagedObjectModel) throws {
        for entityMapping in mapping.entityMappings {
            if let name = entityMapping.sourceEntityName, source.entity(named: name) == nil {
                throw MigrationError.mapping(reason: "entity mapping \(entityMapping.name) reads entity \(name), which \(source.name) does not have")
            }
            if let name = entityMapping.destinationEntityName, destination.entity(named: name) == nil {
                throw MigrationError.mapping(reason: "entity mapping \(entityMapping.name) makes entity \(name), which \(destination.name) does not have")
            }
        }
    }

    // MARK: The three stages

    private func run(sourceURL: URL) throws -> KeptObjects {
        let mappings = mappingModel.entityMappings
        let plans = try mappings.indices.map(instancePlan)
        keepsSourceKeys = Self.keepingSourceKeys(plans)
        try attachSource(sourceURL, plans: plans)
        defer { detachSource() }
        try destinationStore.database.read(SourceRowCheck(schema: sourceStore.schema, attachedAs: "src",
                                                          path: sourceStore.url.path).run)
        try destinationStore.database.read(UnreadSourceObjects(source: sourceStore.schema, destination: destinationStore.model,
                                                               mapping: mappingModel, attachedAs: "src").run)
        sourceCounts = try mappings.indices.map(countSourceInstances)
        workTotal = max(1, 2 * sourceCounts.reduce(0, +) + 1)

        // When every mapping runs as SQL, all are numbered first, so each row is inserted whole,
        // its foreign keys included, and stage 2 has only join tables left to fill.
        var links: [[InsertLink]]?
        let numbered = plans.allSatisfy(\.isSetBased) && policies.allSatisfy(\.createsRelationshipsFromMappingExpressions)
        let setBased = SetBasedMigration(manager: self)
        // Mappings keeping source keys raise their hierarchy's Z_MAX first, whatever runs before
        // them: no object made earlier can take one of their keys.
        for (index, plan) in plans.enumerated() where numbered || keepsSourceKeys.contains(index) {
            if case .setBased(let selection, let statement) = plan {
                try setBased.numberInstances(index, selection: selection, destination: statement.destination)
            }
        }
        if numbered {
            links = try setBased.makeInsertLinks()
        }
        // Rows go in first and the indexes are built after, unless objects are saved one by one,
        // whose saves read through the indexes.
        let deferredIndexes = numbered ? try DeferredIndexes.drop(in: destinationStore) : nil
        for (index, mapping) in mappings.enumerated() {
            currentEntityMapping = mapping
            let start = ContinuousClock.now
            try policies[index].beginEntityMapping(mapping, manager: self)
            try createDestinationInstances(index, plans[index], numbered: numbered, links: links?[index] ?? [])
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
        try MigrationValidation(store: destinationStore, unchangedAttributes: numbered ? Self.unchangedAttributes(plans) : [:]).run()
        for (index, mapping) in mappings.enumerated() {
            currentEntityMapping = mapping
            try policies[index].performCustomValidation(for: mapping, manager: self)
            try policies[index].endEntityMapping(mapping, manager: self)
        }
        currentEntityMapping = nil
        workDone = workTotal
        report(.validating, nil)
        return keptObjects(plans)
    }

    /// The destination entities of mappings keeping source keys, with what they copied unchanged.
    private func keptObjects(_ plans: [InstancePlan]) -> KeptObjects {
        var kept = KeptObjects()
        for index in keepsSourceKeys {
            guard case .setBased(_, let statement) = plans[index],
                  let sourceName = mappingModel.entityMappings[index].sourceEntityName else { continue }
            kept.entities[statement.destination.name] = KeptObjects.Entity(sourceEntity: sourceName,
                                                                           copiedAttributes: statement.copiedAttributes)
        }
        return kept
    }

    /// Set-based mappings that are the only ones making objects of their destination hierarchy,
    /// with a filter SQL holds without bound values: their objects can keep the source's keys
    /// (unique in the source table, and nothing else numbers that hierarchy), so their association
    /// is a view over the source rather than a table of every pair, written and indexed.
    private static func keepingSourceKeys(_ plans: [InstancePlan]) -> Set<Int> {
        var hierarchies: [String: Int] = [:]
        for plan in plans {
            if case .setBased(_, let statement) = plan { hierarchies[statement.destination.rootName, default: 0] += 1 }
            if case .perObject = plan { return [] }
        }
        return Set(plans.indices.filter { index in
            guard case .setBased(let selection, let statement) = plans[index], !selection.bindsValues else { return false }
            return hierarchies[statement.destination.rootName] == 1
        })
    }

    /// For each destination entity every mapping of which copies some attributes unchanged,
    /// those attributes (the intersection over its mappings): validation skips them.
    private static func unchangedAttributes(_ plans: [InstancePlan]) -> [String: Set<String>] {
        var unchanged: [String: Set<String>] = [:]
        for case .setBased(_, let statement) in plans {
            let name = statement.destination.name
            unchanged[name] = unchanged[name].map { $0.intersection(statement.unchangedAttributes) } ?? statement.unchangedAttributes
        }
        return unchanged
    }

    private func attachSource(_ url: URL, plans: [InstancePlan]) throws {
        try destinationStore.database.writeWithoutTransaction { db in
            try db.attachForReading(url, as: "src")
            for (index, mapping) in mappingModel.entityMappings.enumerated() {
                let computed = try (policies[index] as? SetBasedMigrationPolicy)?.computedValues(for: mapping) ?? [:]
                for value in computed.values {
                    db.add(function: value.function.databaseFunction(argumentCount: value.arguments.count))
                }
                if keepsSourceKeys.contains(index), case .setBased(let selection, let statement) = plans[index] {
                    try db.execute(literal: """
                        CREATE TEMP VIEW \(sql: Self.association(index)) (spk, sent, dpk, dent) AS
                        SELECT s.Z_PK, s.Z_ENT, s.Z_PK, \(sql: String(statement.destination.number)) FROM \(selection.from)
                        """)
                    continue
                }
                try db.execute(sql: "CREATE TEMP TABLE \(Self.association(index)) (spk INTEGER NOT NULL, sent INTEGER NOT NULL, dpk INTEGER NOT NULL, dent INTEGER NOT NULL)")
                try db.execute(sql: "CREATE INDEX temp.\(Self.association(index))_S ON \(Self.association(index)) (spk, sent)")
                try db.execute(sql: "CREATE INDEX temp.\(Self.association(index))_D ON \(Self.association(index)) (dpk)")
            }
        }
    }

    /// Drops the temporary tables and detaches the source. A failure here hides nothing: temporary
    /// tables and the attachment belong to the connection, which is closed right after (or the
    /// file removed after a failure), and the migrated rows are committed already.
    private func detachSource() {
        try? destinationStore.database.writeWithoutTransaction { db in
            for index in mappingModel.entityMappings.indices {
                try db.execute(sql: "DROP \(keepsSourceKeys.contains(index) ? "VIEW" : "TABLE") IF EXISTS temp.\(Self.association(index))")
            }
            for table in try String.fetchAll(db, sql: "SELECT name FROM temp.sqlite_master WHERE type = 'table' AND name LIKE 'MS\\_LINK\\_%' ESCAPE '\\'") {
                try db.execute(sql: "DROP TABLE temp.\(table.quotedSQLIdentifier)")
            }
            try db.execute(sql: "DETACH DATABASE src")
        }
    }

    /// The temporary table associating source and destination objects of one entity mapping.
    static func association(_ index: Int) -> String { "MS_ASSOCIATION_\(index)" }

    /// The work of a mapping, for progress: its source objects, or for one keeping source keys,
    /// the span of its keys, an estimate (two steps down the source's keys instead of a scan of
    /// its rows; gaps left by deleted objects make it larger, never smaller).
    private func countSourceInstances(_ index: Int) throws -> Int {
        guard let selection = try sourceSelection(index) else { return 0 }
        if keepsSourceKeys.contains(index) {
            guard let (low, high) = try SetBasedMigration(manager: self).keyBounds("temp.\(Self.association(index))") else { return 0 }
            let (span, overflow) = high.subtractingReportingOverflow(low)
            return overflow ? Self.largestEstimate : Int(min(span, Int64(Self.largestEstimate)))
        }
        return try destinationStore.database.read { db in
            try Int.fetchOne(db, SQLRequest(literal: "SELECT COUNT(*) FROM \(selection.from)")) ?? 0
        }
    }

    /// The source objects an entity mapping migrates: `from` is `src.<table> s WHERE …`.
    struct SourceSelection {
        let table: String
        /// `s.Z_ENT = … AND …`, on the source rows `s`.
        let conditions: SQL
        /// True when the conditions bind values: a view (which cannot) cannot select these rows.
        let bindsValues: Bool
        /// What of the filter SQL cannot express, evaluated per object.
        let residual: ObjectPredicate?

        /// `src.<table> s WHERE …`.
        var from: SQL { "src.\(sql: table.quotedSQLIdentifier) s WHERE \(conditions)" }
    }

    /// `src.<table> s WHERE …`: the source objects an entity mapping migrates, with as much of
    /// its filter as SQL can express; nil for a mapping without a source entity.
    func sourceSelection(_ index: Int) throws -> SourceSelection? {
        let mapping = mappingModel.entityMappings[index]
        guard let name = mapping.sourceEntityName, let entity = sourceStore.schema.entity(named: name) else { return nil }
        var conditions: SQL = "s.Z_ENT = \(sql: String(entity.number))"
        var bindsValues = false
        var residual: ObjectPredicate?
        if let filter = mapping.filterPredicate {
            let compiler = PredicateSQLCompiler(schema: sourceStore.schema, entity: entity, variables: [:], alias: "s", tablePrefix: "src.")
            let split = compiler.split(filter)
            if let sql = split.sql {
                conditions += " AND \(sql)"
                bindsValues = try sourceStore.database.read { db in try !sql.build(db).arguments.isEmpty }
            }
            residual = split.residual
        }
        return SourceSelection(table: entity.tableName, conditions: conditions, bindsValues: bindsValues, residual: residual)
    }

    // MARK: Stage 1

    /// How stage 1 makes a mapping's destination objects.
    enum InstancePlan {
        /// No source or no destination entity: nothing to make.
        case nothing
        case setBased(SourceSelection, SetBasedMigration.InstanceStatement)
        case perObject(SourceSelection)

        var isSetBased: Bool {
            if case .perObject = self { false } else { true }
        }
    }

    /// Set-based when the mapping has no policy or a `SetBasedMigrationPolicy`, and SQL can
    /// express its filter and every value.
    private func instancePlan(_ index: Int) throws -> InstancePlan {
        let mapping = mappingModel.entityMappings[index]
        guard mapping.destinationEntityName != nil, let selection = try sourceSelection(index) else { return .nothing }
        let computing = policies[index] as? SetBasedMigrationPolicy
        guard mapping.policyClassName == nil || computing != nil, selection.residual == nil,
              let statement = SetBasedMigration(manager: self).instanceCreation(index, computed: try computing?.computedValues(for: mapping) ?? [:])
        else { return .perObject(selection) }
        return .setBased(selection, statement)
    }

    private func createDestinationInstances(_ index: Int, _ plan: InstancePlan, numbered: Bool, links: [InsertLink]) throws {
        let mapping = mappingModel.entityMappings[index]
        switch plan {
        case .nothing:
            return
        case .setBased(let selection, let statement):
            let setBased = SetBasedMigration(manager: self)
            if !numbered && !keepsSourceKeys.contains(index) {
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
    private func forEachSourceBatch(_ selection: SourceSelection,
                                    _ body: ([ManagedObject]) throws -> Void) throws {
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
        let rows = pendingAssociations.compactMap { pending -> (Int, [DatabaseValue])? in
            guard let sourceKey = pending.source.primaryKey, let destinationKey = pending.destination.objectID.primaryKey,
                  let sourceEntity = sourceStore.schema.entity(named: pending.source.entityName),
                  let destinationEntity = destinationStore.schema.entity(named: pending.destination.entity.name) else { return nil }
            return (pending.mapping, [sourceKey.databaseValue, sourceEntity.number.databaseValue,
                                      destinationKey.databaseValue, destinationEntity.number.databaseValue])
        }
        try destinationStore.database.write { db in
            for (mapping, values) in rows {
                try db.execute(sql: "INSERT INTO temp.\(Self.association(mapping)) (spk, sent, dpk, dent) VALUES (?, ?, ?, ?)",
                               arguments: StatementArguments(values))
            }
        }
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
            let setBased = SetBasedMigration(manager: self)
            perObject = try perObject.filter { try !setBased.linkRelationship($0, of: index) }
            if perObject.isEmpty {
                // Progress counts source objects: the work stage 1 counted for this mapping.
                try advance(by: sourceCounts[index], .creatingRelationships, mapping.name)
                return
            }
        }
        var limited = mapping
        limited.relationshipMappings = perObject
        var last: Int64 = 0
        while true {
            let rows = try destinationStore.database.read { db in
                try Row.fetchAll(db, sql: "SELECT dpk, dent FROM temp.\(Self.association(index)) WHERE dpk > ? ORDER BY dpk LIMIT \(Self.objectBatchSize)", arguments: [last])
            }
            let ids = try rows.map { try associated($0, key: "dpk", entity: "dent", of: index, in: destinationStore) }
            guard let final = ids.last?.primaryKey else { break }
            last = final
            for destination in try destinationContext.materialize(ids) {
                try policies[index].createRelationships(forDestination: destination, in: limited, manager: self)
            }
            try destinationContext.save(validating: false)
            destinationContext.reset()
            sourceContext.reset()
            try advance(by: rows.count, .creatingRelationships, mapping.name)
        }
    }

    // MARK: Progress

    private func advance(by count: Int, _ stage: MigrationProgress.Stage, _ mapping: String?) throws {
        if cancellation?.isCancelled == true { throw MigrationError.cancelled }
        workDone = min(workTotal, workDone + count)
        report(stage, mapping)
    }

    private func report(_ stage: MigrationProgress.Stage, _ mapping: String?) {
        migrationProgress = Double(workDone) / Double(workTotal)
        progressHandler?(MigrationProgress(fraction: migrationProgress, stage: stage, entityMappingName: mapping))
    }

    // MARK: API for policies

    /// Inserts an object of a destination entity.
    public func insertDestinationObject(entityName: String) throws -> ManagedObject {
        try destinationContext.insertObject(entityName: entityName)
    }

    /// Records that `destination` was made from `source` by the mapping: what
    /// `destinationInstancesForEntityMappingNamed:` later answers. Forgetting it loses data.
    public func associate(source: ManagedObject, destination: ManagedObject, mapping: EntityMapping) {
        guard let index = mappingModel.entityMappings.firstIndex(where: { $0.name == mapping.name }) else { return }
        pendingAssociations.append((source.objectID, destination, index))
    }

    /// Evaluates a mapping expression with `$source`, `$manager`, `$entityPolicy`, `$entityMapping`.
    public func evaluate(_ expression: ValueExpression, source: ManagedObject, mapping: EntityMapping,
                         policy: EntityMigrationPolicy) throws -> ExpressionValue {
        let evaluator = ExpressionEvaluator(variables: [
            "source": .object(source), "manager": .object(self), "entityPolicy": .object(policy),
            "entityMapping": .object(EntityMappingValues(mapping)),
        ])
        return try evaluator.evaluate(expression, on: .object(source))
    }

    /// Sets an attribute from an evaluated value.
    public func setAttribute(_ value: ExpressionValue, forKey key: String, of object: ManagedObject) throws {
        switch value {
        case .null: object.setValue(nil, forKey: key)
        case .scalar(let scalar): object.setValue(scalar, forKey: key)
        case .object, .collection:
            throw MigrationError.mapping(reason: "\(object.entity.name).\(key): the mapping's expression gave objects, not a value")
        }
    }

    /// Sets a relationship from an evaluated value: objects of the destination store.
    public func setRelationship(_ value: ExpressionValue, forKey key: String, of object: ManagedObject) throws {
        let targets: [ManagedObject]
        switch value {
        case .null: targets = []
        case .object(let target as ManagedObject): targets = [target]
        case .collection(let items): targets = items.compactMap { if case .object(let target as ManagedObject) = $0 { target } else { nil } }
        default: throw MigrationError.mapping(reason: "\(object.entity.name).\(key): the mapping's expression gave no objects")
        }
        guard let relationship = destinationModel.allRelationships(of: object.entity.name).first(where: { $0.name == key }) else {
            throw MigrationError.mapping(reason: "\(object.entity.name) has no relationship \(key)")
        }
        if relationship.isToMany {
            let wanted = Set(targets.map(\.objectID))
            for member in object.objects(forKey: key) where !wanted.contains(member.objectID) { object.removeObject(member, forKey: key) }
            for target in targets { object.addObject(target, forKey: key) }
        } else {
            object.setObject(targets.first, forKey: key)
        }
    }

    /// The destination objects made by the mapping from the given source objects.
    public func destinationInstances(forEntityMappingNamed name: String, sourceInstances: [ManagedObject]) throws -> [ManagedObject] {
        let index = try mappingIndex(name)
        var result: [ManagedObject] = []
        for source in sourceInstances {
            result += pendingAssociations.filter { $0.mapping == index && $0.source == source.objectID }.map(\.destination)
            guard let key = source.objectID.primaryKey, let entity = sourceStore.schema.entity(named: source.entity.name) else { continue }
            let rows = try destinationStore.database.read { db in
                try Row.fetchAll(db, sql: "SELECT dpk, dent FROM temp.\(Self.association(index)) WHERE spk = ? AND sent = ?", arguments: [key, entity.number])
            }
            let ids = try rows.map { try associated($0, key: "dpk", entity: "dent", of: index, in: destinationStore) }
            result += ids.compactMap(destinationContext.object(with:))
        }
        return result
    }

    /// The destination objects made from the given source objects by any entity mapping.
    /// They come in the order of the source objects.
    public func destinationInstances(forSourceInstances sourceInstances: [ManagedObject]) throws -> [ManagedObject] {
        try sourceInstances.flatMap { source in
            try mappingModel.entityMappings.flatMap { try destinationInstances(forEntityMappingNamed: $0.name, sourceInstances: [source]) }
        }
    }

    /// The source objects the mapping made the given destination objects from.
    public func sourceInstances(forEntityMappingNamed name: String, destinationInstances: [ManagedObject]) throws -> [ManagedObject] {
        let index = try mappingIndex(name)
        var result: [ManagedObject] = []
        for destination in destinationInstances {
            if let pending = pendingAssociations.first(where: { $0.mapping == index && $0.destination === destination }) {
                result += [sourceContext.object(with: pending.source)].compactMap { $0 }
                continue
            }
            guard let key = destination.objectID.primaryKey else { continue }
            let rows = try destinationStore.database.read { db in
                try Row.fetchAll(db, sql: "SELECT spk, sent FROM temp.\(Self.association(index)) WHERE dpk = ?", arguments: [key])
            }
            let ids = try rows.map { try associated($0, key: "spk", entity: "sent", of: index, in: sourceStore) }
            result += ids.compactMap(sourceContext.object(with:))
        }
        return result
    }

    /// The object one side of an association row names, read with errors (the row is this
    /// program's, but its numbers came from the store).
    private func associated(_ row: Row, key: String, entity: String, of index: Int, in store: PersistentStore) throws -> ObjectID {
        let reader = RowReader(row: row, table: Self.association(index), path: store.url.path)
        let number = try reader.integer(entity)
        guard let primaryKey = try reader.integer(key),
              let storage = number.flatMap({ Int(exactly: $0) }).flatMap(store.schema.entity(number:)) else {
            throw MigrationError.file(path: store.url.path, reason: "the association of entity mapping \(index) names no object (entity \(number.map(String.init) ?? "NULL"))")
        }
        return ObjectID(entityName: storage.name, primaryKey: primaryKey)
    }

    private func mappingIndex(_ name: String) throws -> Int {
        guard let index = mappingModel.entityMappings.firstIndex(where: { $0.name == name }) else {
            throw MigrationError.mapping(reason: "the mapping model has no entity mapping named \(name)")
        }
        return index
    }

    // MARK: $manager in expressions

    public func expressionValue(forKey key: String) throws -> ExpressionValue {
        switch key {
        case "migrationProgress": return .scalar(.double(migrationProgress))
        case "currentEntityMapping": return currentEntityMapping.map { .object(EntityMappingValues($0)) } ?? .null
        default: throw ExpressionEvaluationError("the migration manager has no value for \"\(key)\"")
        }
    }

    public func perform(selector: String, arguments: [ExpressionValue]) throws -> ExpressionValue {
        guard arguments.count == 2, case .scalar(.string(let name))? = arguments.first else {
            throw ExpressionEvaluationError("\(selector) takes a name and objects")
        }
        let objects: [ManagedObject]
        switch arguments[1] {
        case .object(let object as ManagedObject): objects = [object]
        case .collection(let items): objects = items.compactMap { if case .object(let object as ManagedObject) = $0 { object } else { nil } }
        default: objects = []
        }
        switch selector {
        case MigrationSelectors.destinationInstances:
            return .collection(try destinationInstances(forEntityMappingNamed: name, sourceInstances: objects).map { .object($0) })
        case MigrationSelectors.destinationInstancesForRelationship:
            return .collection(try destinationInstances(forSourceInstances: objects).map { .object($0) })
        case MigrationSelectors.sourceInstances:
            return .collection(try sourceInstances(forEntityMappingNamed: name, destinationInstances: objects).map { .object($0) })
        default:
            throw ExpressionEvaluationError("the migration manager does not implement \(selector)")
        }
    }
}

/// `$entityMapping` in expressions: the mapping's names and user info.
final class EntityMappingValues: KeyValueReadable {
    let mapping: EntityMapping

    init(_ mapping: EntityMapping) {
        self.mapping = mapping
    }

    func expressionValue(forKey key: String) throws -> ExpressionValue {
        switch key {
        case "name": return .scalar(.string(mapping.name))
        case "sourceEntityName": return ExpressionValue(mapping.sourceEntityName.map(AttributeValue.string))
        case "destinationEntityName": return ExpressionValue(mapping.destinationEntityName.map(AttributeValue.string))
        default: return ExpressionValue(mapping.userInfo[key].map(AttributeValue.string))
        }
    }
}
