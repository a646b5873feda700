import Foundation
import ManagedStore
import Testing
import TestSupport

/// Inferred migrations that change how a relationship is stored (foreign key <-> join table,
/// ordered <-> unordered, entities moving into or out of hierarchies) must carry every link over.
@Suite("Inferred migrations keep links when relationship storage changes")
struct RelationshipStorageMigrationTests {
    /// One side of the Parent.children <-> Child.parent relationship.
    enum Side: Sendable {
        case one, many, ordered

        var isToMany: Bool { self != .one }

        func xml(_ name: String, to destination: String, inverse: String) -> String {
            let shape: String
            switch self {
            case .one: shape = #"maxCount="1""#
            case .many: shape = #"toMany="YES""#
            case .ordered: shape = #"toMany="YES" ordered="YES""#
            }
            return #"<relationship name="\#(name)" optional="YES" \#(shape) deletionRule="Nullify" destinationEntity="\#(destination)" inverseName="\#(inverse)" inverseEntity="\#(destination)"/>"#
        }
    }

    /// A version of the model: its two sides, whether Child is a sub-entity of Thing, and
    /// whether Parent has a sub-entity SpecialParent.
    struct Shape: Sendable, CustomStringConvertible {
        var parent: Side
        var child: Side
        var childInHierarchy = false
        var parentHasSubentity = false

        var xml: String {
            var entities = #"<entity name="Parent"><attribute name="name" attributeType="String"/>"#
                + parent.xml("children", to: "Child", inverse: "parent") + "</entity>"
            entities += #"<entity name="Child"\#(childInHierarchy ? #" parentEntity="Thing""# : "")><attribute name="name" attributeType="String"/>"#
                + child.xml("parent", to: "Parent", inverse: "children") + "</entity>"
            if childInHierarchy {
                entities += #"<entity name="Thing"><attribute name="label" optional="YES" attributeType="String"/></entity>"#
            }
            if parentHasSubentity {
                entities += #"<entity name="SpecialParent" parentEntity="Parent"><attribute name="rank" optional="YES" attributeType="Integer 16"/></entity>"#
            }
            return entities
        }

        var description: String {
            "\(parent)-\(child)\(childInHierarchy ? " (Child under Thing)" : "")\(parentHasSubentity ? " (Parent has a sub-entity)" : "")"
        }
    }

    /// Links valid for a shape, as (parent index, child index), in the order they are added.
    private func links(for shape: Shape) -> [(Int, Int)] {
        switch (shape.parent.isToMany, shape.child.isToMany) {
        case (false, false): return [(0, 0), (1, 1), (2, 2)]
        case (true, false): return [(1, 5), (0, 0), (1, 3), (0, 2), (1, 1)]
        case (false, true): return [(0, 0), (1, 0), (2, 1)]
        case (true, true): return [(0, 2), (0, 0), (0, 1), (1, 2), (1, 3), (2, 4)]
        }
    }

    /// The links as seen from each side: parent name -> children (in order when ordered), and
    /// every "parent>child" seen from the children.
    struct Links: Equatable, CustomStringConvertible {
        var fromParents: [String: [String]]
        var fromChildren: Set<String>

        func unordered() -> Links {
            Links(fromParents: fromParents.mapValues { $0.sorted() }, fromChildren: fromChildren)
        }

        var description: String {
            fromParents.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.joined(separator: ","))" }.joined(separator: "; ")
                + " | " + fromChildren.sorted().joined(separator: " ")
        }
    }

    private func readLinks(_ url: URL, _ model: ManagedObjectModel) throws -> Links {
        let store = try PersistentStore.open(at: url, model: model)
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        func name(_ object: ManagedObject) -> String { object.value(forKey: "name")?.displayText ?? "?" }
        func related(_ object: ManagedObject, _ key: String) -> [ManagedObject] {
            let relationship = model.allRelationships(of: object.entity.name).first { $0.name == key }
            return relationship?.isToMany == true ? object.objects(forKey: key) : [object.object(forKey: key)].compactMap { $0 }
        }
        var fromParents: [String: [String]] = [:]
        for parent in try context.fetch(FetchRequest(entityName: "Parent")) {
            fromParents[name(parent)] = related(parent, "children").map(name)
        }
        var fromChildren: Set<String> = []
        for child in try context.fetch(FetchRequest(entityName: "Child")) {
            for parent in related(child, "parent") { fromChildren.insert("\(name(parent))>\(name(child))") }
        }
        return Links(fromParents: fromParents, fromChildren: fromChildren)
    }

    /// Migrates a filled store of `from` to `to` with the stack, and compares links before and after.
    private func check(from: Shape, to: Shape) throws {
        let folder = try TemporaryFolder()
        let bundle = folder.url.appendingPathComponent("M.xcdatamodeld")
        try ModelFiles.writeVersion("M", entities: from.xml, in: bundle)
        try ModelFiles.writeVersion("M v2", entities: to.xml, in: bundle)
        try folder.write(ModelFiles.currentVersion("M v2"), to: "M.xcdatamodeld/.xccurrentversion")
        let versioned = try ModelFileReader.read(at: bundle)
        let (old, new) = (versioned.versions[0], versioned.versions[1])

        let url = folder.url.appendingPathComponent("store.sqlite")
        let store = try PersistentStore.create(at: url, model: old)
        let context = ManagedObjectContext(store: store)
        func make(_ entity: String, _ name: String) throws -> ManagedObject {
            let object = try context.insertObject(entityName: entity)
            object.setValue(.string(name), forKey: "name")
            return object
        }
        let parents = try (0..<3).map { try make("Parent", "p\($0)") }
        let children = try (0..<6).map { try make("Child", "c\($0)") }
        for (parent, child) in links(for: from) {
            if from.parent.isToMany {
                parents[parent].addObject(children[child], forKey: "children")
            } else if from.child.isToMany {
                children[child].addObject(parents[parent], forKey: "parent")
            } else {
                parents[parent].setObject(children[child], forKey: "children")
            }
        }
        try context.save()
        try store.close()
        let before = try readLinks(url, old)
        #expect(before.fromChildren.count == links(for: from).count)

        try StoreMigrator(storeURL: url, model: versioned, target: new).migrateIfNeeded()
        let after = try readLinks(url, new)
        if from.parent == .ordered && to.parent == .ordered {
            #expect(after == before, "\(from) -> \(to)")
        } else {
            #expect(after.unordered() == before.unordered(), "\(from) -> \(to)")
        }
    }

    @Test("to-one <-> to-many on either side carries every link", arguments: [
        (Shape(parent: .one, child: .one), Shape(parent: .many, child: .one)),
        (Shape(parent: .one, child: .one), Shape(parent: .one, child: .many)),
        (Shape(parent: .one, child: .one), Shape(parent: .many, child: .many)),
        (Shape(parent: .many, child: .one), Shape(parent: .many, child: .many)),
        (Shape(parent: .one, child: .many), Shape(parent: .many, child: .many)),
        (Shape(parent: .ordered, child: .one), Shape(parent: .ordered, child: .many)),
    ])
    func toManyChanges(from: Shape, to: Shape) throws {
        try check(from: from, to: to)
    }

    @Test("ordered <-> unordered carries every link, and the order when both are ordered", arguments: [
        (Shape(parent: .many, child: .one), Shape(parent: .ordered, child: .one)),
        (Shape(parent: .ordered, child: .one), Shape(parent: .many, child: .one)),
        (Shape(parent: .many, child: .many), Shape(parent: .ordered, child: .many)),
        (Shape(parent: .ordered, child: .many), Shape(parent: .many, child: .many)),
    ])
    func orderingChanges(from: Shape, to: Shape) throws {
        try check(from: from, to: to)
    }

    @Test("entities moving into and out of hierarchies carry every link", arguments: [
        (Shape(parent: .many, child: .one), Shape(parent: .many, child: .one, childInHierarchy: true)),
        (Shape(parent: .ordered, child: .one), Shape(parent: .ordered, child: .one, childInHierarchy: true)),
        (Shape(parent: .many, child: .many), Shape(parent: .many, child: .many, childInHierarchy: true)),
        (Shape(parent: .many, child: .one, childInHierarchy: true), Shape(parent: .many, child: .one)),
        (Shape(parent: .many, child: .many, childInHierarchy: true), Shape(parent: .many, child: .many)),
        (Shape(parent: .many, child: .one), Shape(parent: .many, child: .one, parentHasSubentity: true)),
        (Shape(parent: .one, child: .one), Shape(parent: .one, child: .one, parentHasSubentity: true)),
        (Shape(parent: .many, child: .many), Shape(parent: .many, child: .many, parentHasSubentity: true)),
        (Shape(parent: .many, child: .one, parentHasSubentity: true), Shape(parent: .many, child: .one)),
        (Shape(parent: .many, child: .one), Shape(parent: .many, child: .many, childInHierarchy: true)),
    ])
    func hierarchyChanges(from: Shape, to: Shape) throws {
        try check(from: from, to: to)
    }
}
