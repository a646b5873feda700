internal import GRDB

/// How the set-based path makes an entity mapping's destination rows: the destination columns
/// and the SQL computing each from the source row `s`.
struct InstanceStatement {
    var columns: [String]
    var values: [SQL]
    var destination: EntityStorage
    /// The source table the rows `s` are read from.
    var sourceTable: String
    /// Destination attributes copied from a source attribute that already met their checks
    /// (`KeptObjects.copiesUnchanged`), each with that source attribute: validation has
    /// nothing to find in them, and a text index of them stays true.
    var copiedAttributes: [String: String] = [:]
    /// Destination attributes whose values meet their checks by how they are made: a constant
    /// valid for the attribute, or a function's value of the type it promises (`alwaysGives`).
    var validAsMade: Set<String> = []
    /// The attributes validation has nothing to find in.
    var validAttributes: Set<String> { validAsMade.union(copiedAttributes.keys) }

    /// The statement of `mapping`; nil when an attribute's expression (or an argument of a
    /// computed value) needs per-object evaluation. `computed` are a `SetBasedMigrationPolicy`'s
    /// values, which take precedence over the mapping's expressions; `leavesCopies` says that
    /// the mapping's policy (if any) writes nothing its mapping does not describe.
    init?(_ mapping: EntityMapping, source: StoreSchema, destination: StoreSchema,
          computed: [String: ComputedValue], leavesCopies: Bool) {
        guard let sourceName = mapping.sourceEntityName, let sourceEntity = source.entity(named: sourceName),
              let destinationName = mapping.destinationEntityName, let target = destination.entity(named: destinationName)
        else { return nil }
        let compiler = PredicateSQLCompiler(schema: source, entity: sourceEntity, variables: [:], alias: "s", tablePrefix: "src.")
        self.columns = []
        self.values = []
        self.destination = target
        self.sourceTable = sourceEntity.tableName
        let sourceAttributes = Dictionary(source.model.allAttributes(of: sourceName).map { ($0.name, $0) }) { first, _ in first }
        let expressions = Dictionary(uniqueKeysWithValues: mapping.attributeMappings.map { ($0.name, $0.valueExpression) })
        for attribute in destination.model.allAttributes(of: destinationName) where !attribute.isTransient {
            guard let column = target.attributeColumns[attribute.name] else { continue }
            columns.append(column.name)
            if attribute.storesExternally {
                // A tagged column is copied as it is, never computed: anything else converts objects.
                guard computed[attribute.name] == nil,
                      let copied = ExternalStorageChange.copiedTaggedColumn(expressions[attribute.name] ?? nil, from: sourceEntity,
                                                                            model: source.model) else { return nil }
                values.append(copied)
                continue
            }
            if let value = computed[attribute.name] {
                let arguments = value.arguments.compactMap { compiler.valueSQL($0)?.sql }
                guard arguments.count == value.arguments.count else { return nil }
                values.append("\(sql: value.function.name)(\(arguments.joined(separator: ", ")))")
                // Only a policy whose hooks write nothing else: the value stays as computed.
                if leavesCopies, let promised = value.function.alwaysGives, ColumnType(promised) == column.type {
                    validAsMade.insert(attribute.name)
                }
            } else if let expression = expressions[attribute.name] ?? nil {
                guard let (sql, type) = compiler.valueSQL(expression) else { return nil }
                if let type, ColumnType(type) != ColumnType(attribute.type) { return nil }
                values.append(sql)
                // Only without a policy, or with one that says its hooks write nothing else: a
                // policy's hooks may write objects the mapping does not describe.
                if leavesCopies, case .keyPath(.variable("source")?, let path) = expression, path.count == 1,
                   let copied = sourceAttributes[path[0]], KeptObjects.copiesUnchanged(attribute, from: copied) {
                    copiedAttributes[attribute.name] = copied.name
                }
            } else {
                let constant = StoreValueCoding.databaseValue(attribute.defaultValue)
                values.append("\(constant)")
                if leavesCopies, constant.isNull ? attribute.isOptional : column.type.holds(constant) {
                    validAsMade.insert(attribute.name)
                }
            }
        }
    }
}
