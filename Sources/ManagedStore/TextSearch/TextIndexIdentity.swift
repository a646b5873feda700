import Foundation

/// Which store, which shape of the indexed entity and which attributes a text index's entries
/// were made from, kept in its side file as one line. An index whose identity differs from the
/// store's is rebuilt; a migration that provably kept the entity's rows, keys and indexed values
/// rewrites it for the new store (`TextIndexCarry`), which is why it can be read back.
struct TextIndexIdentity: Equatable, CustomStringConvertible {
    var format: Int
    var storeUUID: String
    /// Core Data's checksum of every entity version hash in the store's metadata
    /// (`VersionHasher.checksum`, SHA-256): another version of the model gives another, even where
    /// the indexed entity's own hash did not change (a backup of the previous version put back in
    /// place of the store is then never taken for it).
    var versionHash: String
    var entityName: String
    var attributes: [String]
    var orderAttribute: String

    init(format: Int = TextSearchIndex.format, metadata: StoreMetadata, entityName: String, attributes: [String], orderAttribute: String) {
        self.format = format
        storeUUID = metadata.storeUUID
        versionHash = VersionHasher.checksum(of: metadata.versionHashes)
        self.entityName = entityName
        self.attributes = attributes
        self.orderAttribute = orderAttribute
    }

    init(metadata: StoreMetadata, configuration: TextIndexConfiguration) {
        self.init(metadata: metadata, entityName: configuration.entityName, attributes: configuration.attributes,
                  orderAttribute: configuration.orderAttribute)
    }

    /// `<format> <store UUID> <hash> <entity>:<attribute>,… by <order attribute>`.
    var description: String {
        "\(format) \(storeUUID) \(versionHash) \(entityName):\(attributes.joined(separator: ",")) by \(orderAttribute)"
    }

    /// Reads a line `description` wrote; nil for anything else (the index is then rebuilt).
    init?(parsing line: String) {
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard words.count == 6, words[4] == "by", let format = Int(words[0]) else { return nil }
        let indexed = words[3].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard indexed.count == 2, !indexed[0].isEmpty, !indexed[1].isEmpty, !words[5].isEmpty else { return nil }
        self.format = format
        storeUUID = words[1]
        versionHash = words[2]
        entityName = indexed[0]
        attributes = indexed[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        orderAttribute = words[5]
        guard !attributes.contains(where: \.isEmpty), description == line else { return nil }
    }

    /// The same index, for another store (or another version of the store).
    func describing(_ metadata: StoreMetadata) -> TextIndexIdentity {
        TextIndexIdentity(format: format, metadata: metadata, entityName: entityName, attributes: attributes, orderAttribute: orderAttribute)
    }
}
