internal import GRDB

/// Relationship changes, kept consistent on both sides: setting `attachment.note` also adds the
/// attachment to `note.attachments` and removes it from its former note's.
extension ManagedObjectContext {
    /// The IDs of a to-many relationship's members, read from the store on first use. Members
    /// that cannot be read come back empty, are not remembered (the next use reads again), and
    /// are kept for `checkReads()`.
    func memberIDs(forKey key: String, of object: ManagedObject) -> [ObjectID] {
        object.fulfill()
        if let loaded = object.toManyMembers[key] { return loaded }
        var members: [ObjectID] = []
        let storage = info(for: object.entity.name).storage.toManyStorage[key]
        if let storage, let primaryKey = object.objectID.primaryKey {
            do {
                members = try loadMembers(storage, owner: primaryKey)
            } catch {
                recordReadFailure(.readFailed(entity: object.entity.name, primaryKey: primaryKey, cause: error))
                return []
            }
        }
        let added = object.unloadedAdditions.removeValue(forKey: key) ?? []
        let stored = Set(members)
        object.toManyMembers[key] = members + added.filter { !stored.contains($0) }
        object.toManyMemberSets[key] = nil
        object.committedToManyMembers[key] = members
        return object.toManyMembers[key] ?? members
    }

    private func loadMembers(_ storage: ToManyStorage, owner: Int64) throws -> [ObjectID] {
        let sql: SQL
        let memberTable: String
        switch storage {
        case .inverseForeignKey(let table, let column, _, let orderColumn):
            memberTable = table
            let order: SQL = orderColumn.map { "\(coreDataName: $0), " } ?? ""
            sql = "SELECT Z_PK, Z_ENT FROM \(coreDataName: table) WHERE \(coreDataName: column) = \(owner) ORDER BY \(order)Z_PK"
        case .joinTable(let table, let ownerColumn, let memberColumn, let destination, let orderColumn):
            memberTable = schema.storage(ofModelEntity: destination).tableName
            let order: SQL = orderColumn.map { "j.\(coreDataName: $0), " } ?? ""
            sql = """
                SELECT m.Z_PK, m.Z_ENT FROM \(coreDataName: table) j JOIN \(coreDataName: memberTable) m \
                ON m.Z_PK = j.\(coreDataName: memberColumn) WHERE j.\(coreDataName: ownerColumn) = \(owner) ORDER BY \(order)m.Z_PK
                """
        }
        return try store.database.read { db in
            try Row.fetchAll(db, SQLRequest(literal: sql)).map { row in
                try rowReader(row, table: memberTable).objectID(in: schema)
            }
        }
    }

    func setToOne(_ target: ManagedObject?, forKey key: String, of object: ManagedObject) {
        guard let relationship = relationship(key, of: object, toMany: false) else { return }
        object.fulfill()
        object.settingProblems[key] = nil
        let old = object.toOneTargets[key]
        guard old != target?.objectID else { return }
        let inverse = model.inverse(of: relationship)
        if let old, let inverse, let former = registeredOrFault(old) {
            if inverse.isToMany {
                primitiveRemove(object.objectID, forKey: inverse.name, of: former)
            } else if former.toOneTargets[inverse.name] == object.objectID {
                primitiveSet(nil, forKey: inverse.name, of: former)
            }
        }
        primitiveSet(target?.objectID, forKey: key, of: object)
        guard let target, let inverse else { return }
        if inverse.isToMany {
            primitiveAdd(object.objectID, forKey: inverse.name, of: target)
        } else {
            target.fulfill()
            if let previous = target.toOneTargets[inverse.name], previous != object.objectID,
               let stolenFrom = registeredOrFault(previous) {
                primitiveSet(nil, forKey: key, of: stolenFrom)
            }
            primitiveSet(object.objectID, forKey: inverse.name, of: target)
        }
    }

    func addMember(_ member: ManagedObject, forKey key: String, of object: ManagedObject) {
        guard let relationship = relationship(key, of: object, toMany: true) else { return }
        let inverse = model.inverse(of: relationship)
        if let inverse, !inverse.isToMany {
            setToOne(object, forKey: inverse.name, of: member)
            return
        }
        primitiveAdd(member.objectID, forKey: key, of: object)
        if let inverse { primitiveAdd(object.objectID, forKey: inverse.name, of: member) }
    }

    func removeMember(_ member: ManagedObject, forKey key: String, of object: ManagedObject) {
        guard let relationship = relationship(key, of: object, toMany: true) else { return }
        let inverse = model.inverse(of: relationship)
        if let inverse, !inverse.isToMany {
            member.fulfill()
            if member.toOneTargets[inverse.name] == object.objectID { setToOne(nil, forKey: inverse.name, of: member) }
            return
        }
        primitiveRemove(member.objectID, forKey: key, of: object)
        if let inverse { primitiveRemove(object.objectID, forKey: inverse.name, of: member) }
    }

    /// The relationship named `key`, when it is of the kind asked for; otherwise the problem is
    /// recorded for the next save, since setters cannot throw.
    private func relationship(_ key: String, of object: ManagedObject, toMany: Bool) -> RelationshipDescription? {
        if let relationship = info(for: object.entity.name).relationships[key], relationship.isToMany == toMany {
            return relationship
        }
        object.settingProblems[key] = "the entity has no \(toMany ? "to-many" : "to-one") relationship of that name"
        noteChanged(object)
        return nil
    }

    // MARK: One side only

    func primitiveSet(_ target: ObjectID?, forKey key: String, of object: ManagedObject) {
        object.fulfill()
        object.toOneTargets[key] = target
        noteChanged(object)
    }

    /// Adds in constant time: the membership test is a set's, the append in place.
    func primitiveAdd(_ member: ObjectID, forKey key: String, of object: ManagedObject) {
        object.fulfill()
        if object.toManyMembers[key] == nil, object.objectID.primaryKey != nil,
           info(for: object.entity.name).relationships[key]?.isOrdered == false {
            if object.unloadedAdditions[key, default: []].insert(member).inserted { noteChanged(object) }
            return
        }
        let loaded = memberIDs(forKey: key, of: object)
        if object.toManyMemberSets[key] == nil { object.toManyMemberSets[key] = Set(loaded) }
        guard object.toManyMemberSets[key, default: []].insert(member).inserted else { return }
        object.toManyMembers[key, default: []].append(member)
        noteChanged(object)
    }

    func primitiveRemove(_ member: ObjectID, forKey key: String, of object: ManagedObject) {
        guard let index = memberIDs(forKey: key, of: object).firstIndex(of: member) else { return }
        object.toManyMembers[key, default: []].remove(at: index)
        object.toManyMemberSets[key]?.remove(member)
        noteChanged(object)
    }
}
