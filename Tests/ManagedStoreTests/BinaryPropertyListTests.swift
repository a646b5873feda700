import Foundation
@testable import ManagedStore
import Testing
import TestSupport

/// The engine reads binary property lists itself because Foundation on Linux hides the value of
/// an archive's `UID`s (keyed archives are references by `UID`). This pins that reader to
/// `PropertyListSerialization` on real files Apple wrote: the compiled models cached in the
/// fixture stores read the same, value for value, with each `UID` compared through reflection.
@Suite("Binary property list reader")
struct BinaryPropertyListTests {
    @Test("each compiled model Core Data cached in a real store reads as PropertyListSerialization reads it",
          SharedFixtures.required,
          arguments: ["coredata-samplemodel3/SampleModel3_V1.sqlite", "coredataplus-samplemodel2/SampleModel2_V1.sqlite",
                      "wibosco-migration-example/stores/CoreDataMigration_Example_1.sqlite",
                      "wibosco-migration-example/stores/CoreDataMigration_Example_2.sqlite",
                      "wibosco-migration-example/stores/CoreDataMigration_Example_3.sqlite"])
    func agreesWithFoundation(store path: String) throws {
        let folder = try TemporaryFolder()
        let store = try folder.copy(SharedFixtures.url(path))
        let data = try #require(try StoreModelCache.compiledModelData(storeAt: store))
        let ours = try BinaryPropertyListReader.read(data)
        let foundation = try PropertyListSerialization.propertyList(from: data, format: nil)
        #expect(Self.difference(ours, foundation, at: "root") == nil)
    }

    /// Where the two readings first differ, as a path into the property list; nil when they agree.
    private static func difference(_ ours: PropertyListValue, _ theirs: Any, at path: String) -> String? {
        let same: Bool
        switch ours {
        case .null: same = theirs is NSNull
        case .bool(let value): same = (theirs as? Bool) == value
        case .integer(let value): same = (theirs as? NSNumber)?.int64Value == value
        case .real(let value): same = (theirs as? Double) == value
        case .date(let value): same = (theirs as? Date) == value
        case .data(let value): same = (theirs as? Data) == value
        case .string(let value): same = (theirs as? String) == value
        case .uid(let value): same = uidValue(theirs) == value
        case .array(let items):
            guard let others = theirs as? [Any], others.count == items.count else { return "\(path): array of \(items.count)" }
            return zip(items, others).enumerated().lazy
                .compactMap { difference($1.0, $1.1, at: "\(path)[\($0)]") }.first
        case .dictionary(let entries):
            guard let others = theirs as? [AnyHashable: Any], Set(others.keys.compactMap { $0 as? String }) == Set(entries.keys) else {
                return "\(path): keys \(entries.keys.sorted())"
            }
            return entries.keys.sorted().lazy.compactMap { key in
                difference(entries[key]!, others[key]!, at: "\(path).\(key)")
            }.first
        }
        return same ? nil : "\(path): \(ours) vs \(theirs)"
    }

    /// The number inside Foundation's private `_NSKeyedArchiverUID`, read through reflection.
    private static func uidValue(_ value: Any) -> Int? {
        guard String(describing: type(of: value)).contains("KeyedArchiverUID") else { return nil }
        return Mirror(reflecting: value).children.first { $0.label == "value" }
            .flatMap { ($0.value as? UInt32).map(Int.init) ?? ($0.value as? Int) }
    }
}
