internal import GRDB

/// Turns predicates into SQL `WHERE` clauses over a store's tables.
///
/// Comparisons SQLite can do natively with the same answers as `ScalarComparison` (numbers with
/// numbers, text with text, tests for nil) become plain SQL, so indexes work; text operators and
/// `[cd]` options call the `MS_COMPARE` SQL function, which runs the in-memory comparison itself.
/// What SQL cannot express (FUNCTION, object variables) is left to `ExpressionEvaluator`:
/// `split` pushes every expressible conjunct down and returns the rest.
///
/// The output is GRDB's `SQL` literal: constants stay bound values and the model's table and
/// column names are quoted identifiers; it becomes text only inside a database call.
struct PredicateSQLCompiler {
    let schema: StoreSchema
    let entity: EntityStorage
    let variables: [String: ExpressionValue]
    /// The alias of the fetched entity's table in the query.
    let alias: String
    /// Put before table names in subselects, e.g. `src.` for an attached database.
    let tablePrefix: String

    init(schema: StoreSchema, entity: EntityStorage, variables: [String: ExpressionValue], alias: String,
         tablePrefix: String = "") {
        self.schema = schema
        self.entity = entity
        self.variables = variables
        self.alias = alias
        self.tablePrefix = tablePrefix
    }

    /// A value expression as SQL over the row (a constant, or a key path of attributes through
    /// to-one relationships), with the attribute type it reads; nil when SQL cannot express it.
    func valueSQL(_ expression: ValueExpression) -> (sql: SQL, type: AttributeType?)? {
        switch expression {
        case .constant(let value):
            return (constant(value).sql, nil)
        case .keyPath(let base, let components) where !components.isEmpty:
            if let base, base != .variable("source") { return nil }
            guard let operand = keyPath(components, from: entity, alias: alias, depth: 1), !operand.isRelationship,
                  let type = attributeType(at: components, from: entity.name) else { return nil }
            return (operand.sql, type)
        default:
            return nil
        }
    }

    /// The column a sort by this key path orders on (a to-one relationship orders by its key);
    /// nil when SQL cannot read it.
    func sortColumn(_ components: [String]) -> SQL? {
        guard !components.isEmpty else { return nil }
        return keyPath(components, from: entity, alias: alias, depth: 1)?.sql
    }

    private func attributeType(at components: [String], from entityName: String) -> AttributeType? {
        var current = entityName
        for key in components.dropLast() {
            guard let relationship = schema.model.allRelationships(of: current).first(where: { $0.name == key }) else { return nil }
            current = relationship.destinationEntityName
        }
        return schema.model.allAttributes(of: current).first { $0.name == components.last }?.type
    }

    /// What SQL can filter, and what must still be checked in memory (nil when nothing).
    func split(_ predicate: ObjectPredicate) -> (sql: SQL?, residual: ObjectPredicate?) {
        if let whole = compile(predicate) { return (whole, nil) }
        guard case .and(let parts) = predicate else { return (nil, predicate) }
        var compiled: [SQL] = []
        var residual: [ObjectPredicate] = []
        for part in parts {
            if let fragment = compile(part) { compiled.append(fragment) } else { residual.append(part) }
        }
        let sql = compiled.isEmpty ? nil : join(compiled, with: "AND")
        return (sql, residual.isEmpty ? nil : (residual.count == 1 ? residual[0] : .and(residual)))
    }

    /// The whole predicate as SQL, or nil when some part cannot be expressed.
    func compile(_ predicate: ObjectPredicate) -> SQL? {
        switch predicate {
        case .constant(let value):
            return value ? "1" : "0"
        case .and(let parts):
            let fragments = parts.compactMap(compile)
            return fragments.count == parts.count ? join(fragments, with: "AND") : nil
        case .or(let parts):
            let fragments = parts.compactMap(compile)
            return fragments.count == parts.count ? join(fragments, with: "OR") : nil
        case .not(let inner):
            return compile(inner).map { "(NOT \($0))" }
        case .comparison(let lhs, let op, let rhs, let options):
            return comparison(lhs, op, rhs, options)
        }
    }

    private func join(_ fragments: [SQL], with word: String) -> SQL {
        "(\(fragments.joined(separator: " \(word) ")))"
    }

    // MARK: Comparisons

    private func comparison(_ lhs: ValueExpression, _ op: ComparisonOperator, _ rhs: ValueExpression,
                            _ options: ComparisonOptions) -> SQL? {
        guard let left = operand(lhs) else { return nil }
        if op == .in, let items = collectionItems(rhs) {
            return membership(left, items.map(constant), options)
        }
        guard let right = operand(rhs) else { return nil }
        if left.isRelationship || right.isRelationship {
            // A to-one relationship compares only with nil here: its column holds a key, not an object.
            guard left.isNilConstant || right.isNilConstant, op == .equal || op == .notEqual else { return nil }
        }
        if options.isEmpty, let test = nilTest(left, op, right) { return test }
        let nativeOperators: [ComparisonOperator: String] = [
            .equal: "IS", .notEqual: "IS NOT", .less: "<", .lessOrEqual: "<=", .greater: ">", .greaterOrEqual: ">=",
        ]
        if let sqlOperator = nativeOperators[op], options.isEmpty, left.isCompatible(with: right) {
            return (op == .equal || op == .notEqual)
                ? "(\(left.sql) \(sql: sqlOperator) \(right.sql))"
                : "COALESCE(\(left.sql) \(sql: sqlOperator) \(right.sql), 0)"
        }
        return accentInsensitiveContains(left, op, rhs, options) ?? Self.compare(op, options, left.sql, right.sql)
    }

    /// `x == nil` and `x != nil` as `IS NULL` and `IS NOT NULL`, not `IS ?` with NULL bound:
    /// SQLite then reads only the column's type, never its value. Compared with a bound NULL, a
    /// 50 KB image was read whole from its overflow pages (a migration's filter `image != nil`
    /// read every image once more than the copy itself). nil for any other comparison.
    private func nilTest(_ left: Operand, _ op: ComparisonOperator, _ right: Operand) -> SQL? {
        guard op == .equal || op == .notEqual, left.isNilConstant != right.isNilConstant else { return nil }
        let tested = left.isNilConstant ? right : left
        return "(\(tested.sql) \(sql: op == .equal ? "IS NULL" : "IS NOT NULL"))"
    }

    /// `x CONTAINS[cd] "ascii"` (or `[d]`), the search of the notes list, fast: `MS_FOLD_CONTAINS`
    /// reads the row's bytes in place and folds them with the evaluator's own `AccentFolder`,
    /// stopping at the first match, so the answers stay the evaluator's.
    private func accentInsensitiveContains(_ left: Operand, _ op: ComparisonOperator, _ rhs: ValueExpression,
                                           _ options: ComparisonOptions) -> SQL? {
        guard op == .contains, options.contains(.diacriticInsensitive), left.family == .text,
              case .constant(.string(let pattern)?) = rhs else { return nil }
        var folding: String.CompareOptions = [.diacriticInsensitive]
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        let folded = StringMatching.fold(pattern, folding)
        guard !folded.isEmpty, folded.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        return "MS_FOLD_CONTAINS(\(left.sql), \(folded), \(sql: options.contains(.caseInsensitive) ? "1" : "0"))"
    }

    /// `x IN {a, b}`: NULL is never a member, as in memory.
    private func membership(_ left: Operand, _ items: [Operand], _ options: ComparisonOptions) -> SQL {
        let members = items.filter { !$0.isNilConstant }
        if members.isEmpty { return "0" }
        if options.isEmpty, members.allSatisfy({ left.isCompatible(with: $0) }) {
            return "COALESCE(\(left.sql) IN (\(members.map(\.sql).joined(separator: ", "))), 0)"
        }
        return join(members.map { Self.compare(.equal, options, left.sql, $0.sql) }, with: "OR")
    }

    /// `MS_COMPARE`: the in-memory comparison, for operators and options SQL has no equal of.
    private static func compare(_ op: ComparisonOperator, _ options: ComparisonOptions, _ left: SQL, _ right: SQL) -> SQL {
        "MS_COMPARE(\(sql: "'\(op.rawValue)'"), \(sql: String(options.rawValue)), \(left), \(right))"
    }

    /// The scalar items of a literal collection or a collection variable; nil for anything else.
    private func collectionItems(_ expression: ValueExpression) -> [AttributeValue?]? {
        let values: [ExpressionValue]
        switch expression {
        case .aggregate(let items):
            var collected: [ExpressionValue] = []
            for item in items {
                switch item {
                case .constant(let value): collected.append(ExpressionValue(value))
                case .variable(let name): guard let value = variables[name] else { return nil }; collected.append(value)
                default: return nil
                }
            }
            values = collected
        case .variable(let name):
            guard case .collection(let items)? = variables[name] else { return nil }
            values = items
        default:
            return nil
        }
        var scalars: [AttributeValue?] = []
        for value in values {
            switch value {
            case .null: scalars.append(nil)
            case .scalar(let scalar): scalars.append(scalar)
            default: return nil
            }
        }
        return scalars
    }

    // MARK: Operands

    private struct Operand {
        enum Family { case numeric, text, blob, null, unknown }
        var sql: SQL
        var family: Family
        var isRelationship = false
        var isNilConstant = false

        /// Same-family comparisons behave identically in SQLite and in memory; nil matches anything.
        func isCompatible(with other: Operand) -> Bool {
            family == .null || other.family == .null || (family == other.family && family != .unknown)
        }
    }

    private func operand(_ expression: ValueExpression) -> Operand? {
        switch expression {
        case .constant(let value):
            return constant(value)
        case .variable(let name):
            switch variables[name] {
            case .null?: return constant(nil)
            case .scalar(let value)?: return constant(value)
            default: return nil
            }
        case .keyPath(nil, let components) where !components.isEmpty:
            return keyPath(components, from: entity, alias: alias, depth: 1)
        default:
            return nil
        }
    }

    private func constant(_ value: AttributeValue?) -> Operand {
        let family: Operand.Family = switch value {
        case nil: .null
        case .integer?, .double?, .decimal?, .bool?, .date?: .numeric
        case .string?, .uri?: .text
        case .data?, .uuid?: .blob
        }
        // Bound, nil too (GRDB would write NULL into the text); a test for nil does not bind it
        // (`nilTest`).
        return Operand(sql: "\(sql: "?", arguments: [StoreValueCoding.databaseValue(value)])", family: family,
                       isNilConstant: value == nil)
    }

    /// A column of this row, or of a row reached through to-one relationships (a subselect).
    private func keyPath(_ components: [String], from storage: EntityStorage, alias: String, depth: Int) -> Operand? {
        let key = components[0]
        if let column = storage.attributeColumns[key] {
            // A value stored externally is in a file or behind a tag byte: compared in memory.
            guard components.count == 1, let attribute = schema.model.allAttributes(of: storage.name)
                .first(where: { $0.name == key }), !attribute.storesExternally else { return nil }
            let family: Operand.Family = switch ColumnType(attribute.type) {
            case .integer, .float, .decimal, .timestamp: .numeric
            case .varchar: .text
            case .blob: .blob
            }
            return Operand(sql: "\(sql: alias).\(identifier: column.name)", family: family)
        }
        guard let toOne = storage.toOneColumns[key] else { return nil }
        if components.count == 1 {
            return Operand(sql: "\(sql: alias).\(identifier: toOne.key.name)", family: .numeric, isRelationship: true)
        }
        guard let relationship = schema.model.allRelationships(of: storage.name).first(where: { $0.name == key }),
              let target = schema.entity(named: relationship.destinationEntityName),
              let inner = keyPath(Array(components.dropFirst()), from: target, alias: "t\(depth)", depth: depth + 1)
        else { return nil }
        let innerAlias = "t\(depth)"
        let sql: SQL = """
            (SELECT \(inner.sql) FROM \(sql: tablePrefix)\(identifier: target.tableName) \(sql: innerAlias) \
            WHERE \(sql: innerAlias).Z_PK = \(sql: alias).\(identifier: toOne.key.name))
            """
        return Operand(sql: sql, family: inner.family, isRelationship: inner.isRelationship)
    }
}
