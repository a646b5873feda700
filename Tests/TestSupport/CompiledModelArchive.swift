import Foundation
import GRDB
import ManagedStore

/// Compiled models (`.mom` files, a store's `Z_MODELCACHE`) of one entity with string
/// attributes, under any names: for tests of names that Xcode would never compile.
public enum CompiledModelArchive {
    /// The NSKeyedArchiver archive of an NSManagedObjectModel with the entity and its attributes.
    public static func data(entity: String, attributes: [String]) -> Data {
        let builder = KeyedArchiveBuilder()
        let keys = attributes.map { builder.add(.string($0)) }
        let properties = attributes.map { _ in
            builder.object("NSAttributeDescription", superclasses: ["NSPropertyDescription", "NSObject"],
                           ["NSAttributeType": .integer(700), "NSIsOptional": .integer(1)])
        }
        let propertyTable = builder.object("NSDictionary", ["NS.keys": .array(keys), "NS.objects": .array(properties)])
        let entityObject = builder.object("NSEntityDescription", [
            "NSEntityName": builder.add(.string(entity)), "NSProperties": propertyTable,
        ])
        let entities = builder.object("NSDictionary", ["NS.keys": .array([builder.add(.string(entity))]),
                                                      "NS.objects": .array([entityObject])])
        return builder.archive(root: builder.object("NSManagedObjectModel", ["NSEntities": entities]))
    }

    /// The bytes as raw DEFLATE in stored (uncompressed) blocks, as `Z_MODELCACHE` holds a model.
    public static func rawDeflated(_ data: Data) -> Data {
        var output = Data()
        var chunks = stride(from: 0, to: data.count, by: 0xFFFF).map { data[data.startIndex + $0 ..< data.startIndex + min($0 + 0xFFFF, data.count)] }
        if chunks.isEmpty { chunks = [Data()] }
        for (index, chunk) in chunks.enumerated() {
            let length = UInt16(chunk.count)
            output.append(index == chunks.count - 1 ? 1 : 0) // BFINAL, BTYPE 00 (stored)
            output.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)])
            output.append(chunk)
        }
        return output
    }

    /// `Thing.sqlite` in the folder: a store of a one-entity model (`Thing`, attribute `name`)
    /// whose `Z_MODELCACHE` holds, compressed as Core Data does, a model of `Thing` with these
    /// attributes instead of its own.
    public static func thingStore(cachingAttributes attributes: [String], in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("Thing.sqlite")
        let archive = data(entity: "Thing", attributes: attributes)
        let model = try ManagedObjectModel(name: "Thing", entities: [
            EntityDescription(name: "Thing", attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)]),
        ], sourceName: "CompiledModelArchive")
        try PersistentStore.create(at: url, model: model).close()
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "DELETE FROM Z_MODELCACHE")
            try db.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [rawDeflated(archive)])
        }
        return url
    }
}
