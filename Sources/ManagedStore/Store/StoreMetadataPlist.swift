import Foundation

/// `Z_METADATA.Z_PLIST` with Core Data's keys, encoded and decoded by Foundation's Swift property
/// list coders. `PropertyListSerialization` bridges Swift values to Core Foundation objects at run
/// time, which fails in a program linked with `--static-swift-stdlib` ("property lists cannot
/// contain objects of type 'Not A Type'"); the coders do not bridge, so release builds can link
/// the Swift runtime in and start faster.
struct StoreMetadataPlist: Codable {
    var storeType: String?
    var versionHashes: [String: Data]?
    var versionIdentifiers: [String]?
    var autoVacuumLevel: String?
    var versionHashesVersion: Int?
    var frameworkVersion: Int?
    var versionHashesDigest: String?
    var versionChecksum: String?

    enum CodingKeys: String, CodingKey {
        case storeType = "NSStoreType"
        case versionHashes = "NSStoreModelVersionHashes"
        case versionIdentifiers = "NSStoreModelVersionIdentifiers"
        case autoVacuumLevel = "_NSAutoVacuumLevel"
        case versionHashesVersion = "NSStoreModelVersionHashesVersion"
        case frameworkVersion = "NSPersistenceFrameworkVersion"
        case versionHashesDigest = "NSStoreModelVersionHashesDigest"
        case versionChecksum = "NSStoreModelVersionChecksumKey"
    }

    init(storeType: String, versionHashes: [String: Data], versionIdentifiers: [String], versionHashesVersion: Int?,
         frameworkVersion: Int?, versionHashesDigest: String?, versionChecksum: String?) {
        self.storeType = storeType
        self.versionHashes = versionHashes
        self.versionIdentifiers = versionIdentifiers
        self.autoVacuumLevel = "2"
        self.versionHashesVersion = versionHashesVersion
        self.frameworkVersion = frameworkVersion
        self.versionHashesDigest = versionHashesDigest
        self.versionChecksum = versionChecksum
    }

    /// Each key is read leniently, as `as?` casts would: a value of another type than Core Data
    /// writes counts as absent, and the caller decides which absences matter.
    init(from decoder: Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        func lenient<Value: Decodable>(_ key: CodingKeys) -> Value? {
            // A value of an unexpected type is treated as missing (see above).
            try? keys.decodeIfPresent(Value.self, forKey: key)
        }
        storeType = lenient(.storeType)
        versionHashes = lenient(.versionHashes)
        versionIdentifiers = lenient(.versionIdentifiers)
        autoVacuumLevel = lenient(.autoVacuumLevel)
        versionHashesVersion = lenient(.versionHashesVersion)
        frameworkVersion = lenient(.frameworkVersion)
        versionHashesDigest = lenient(.versionHashesDigest)
        versionChecksum = lenient(.versionChecksum)
    }

    /// The binary property list Core Data stores.
    func binaryData() throws -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return try encoder.encode(self)
    }
}
