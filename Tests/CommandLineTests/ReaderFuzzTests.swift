import Foundation
import ManagedStore
import Testing
import TestSupport

/// Mutated copies of real model and mapping files must never crash the readers: each is read in a
/// child process (`model-reader-host`, built with the tests), so a trap shows as a run ended by a signal.
///
/// `UNCLOUDNOTES_FUZZ_CASES` sets the number of cases per source file kind (default 150, so about
/// 300 in all); `UNCLOUDNOTES_FUZZ_SEED` the seed. Failures name the seed, case and mutations.
@Suite("Reader fuzzing")
struct ReaderFuzzTests {
    private static let casesPerKind = ProcessInfo.processInfo.environment["UNCLOUDNOTES_FUZZ_CASES"]
        .flatMap { Int($0) } ?? 150
    private static let seed = ProcessInfo.processInfo.environment["UNCLOUDNOTES_FUZZ_SEED"]
        .flatMap { UInt64($0) } ?? 0x5EED_F00D

    @Test("mutated model files are read or refused, never crash")
    func modelFiles() throws {
        let sources = Self.modelSources()
        try #require(!sources.isEmpty)
        let folder = try TemporaryFolder()
        var random = SplitMix64(seed: Self.seed)
        let cases = try (0..<Self.casesPerKind).map { index in
            try FuzzCase.write(index: index, from: sources[index % sources.count], random: &random, in: folder,
                               folderName: "case\(index).xcdatamodel", fileName: "contents")
        }
        try expectNoCrash(cases, extraArguments: [])
    }

    @Test("mutated mapping models are read or refused, never crash")
    func mappingFiles() throws {
        let groups = Self.mappingSources()
        let folder = try TemporaryFolder()
        var random = SplitMix64(seed: Self.seed ^ 0x4D41_5050)
        let sources = groups.flatMap { group in group.mappings.map { (mapping: $0, models: group.models) } }
        try #require(!sources.isEmpty)
        let cases = try (0..<Self.casesPerKind).map { index in
            let source = sources[index % sources.count]
            return (models: source.models, fuzzCase: try FuzzCase.write(
                index: index, from: source.mapping, random: &random, in: folder,
                folderName: "case\(index).xcmappingmodel", fileName: "xcmapping.xml"))
        }
        for group in groups {
            try expectNoCrash(cases.filter { $0.models == group.models }.map(\.fuzzCase),
                              extraArguments: ["--models", group.models.path])
        }
    }

    @Test("mutated compiled models (.mom, from the models Core Data cached in real stores) never crash",
          SharedFixtures.required)
    func compiledModels() throws {
        let folder = try TemporaryFolder()
        let stores = ["coredata-samplemodel3/SampleModel3_V1.sqlite", "coredataplus-samplemodel2/SampleModel2_V1.sqlite",
                      "wibosco-migration-example/stores/CoreDataMigration_Example_3.sqlite"]
        let sources = try stores.map { path in
            let store = try folder.copy(SharedFixtures.url(path))
            let mom = folder.url.appendingPathComponent(store.deletingPathExtension().lastPathComponent + ".mom")
            try #require(try StoreModelCache.compiledModelData(storeAt: store)).write(to: mom)
            return mom
        }
        var random = SplitMix64(seed: Self.seed ^ 0x4D4F_4D00)
        let cases = try (0..<Self.casesPerKind).map { index in
            try FuzzCase.write(index: index, from: sources[index % sources.count], random: &random, in: folder,
                               folderName: "mutated\(index)", fileName: "case\(index).mom")
        }
        try expectNoCrash(cases, extraArguments: [])
    }

    /// Runs the cases in as few children as possible: after a crash, a new child continues with the
    /// case after the one that crashed, so every crashing case is found and named.
    private func expectNoCrash(_ cases: [FuzzCase], extraArguments: [String]) throws {
        var next = 0
        var crashes: [String] = []
        while next < cases.count {
            let batch = Array(cases[next..<min(next + 400, cases.count)])
            let result = try BuiltExecutable.run(extraArguments + batch.map(\.path),
                                                 executable: BuiltExecutable.product(named: "model-reader-host"))
            let finished = Set(result.standardOutput.split(separator: "\n").compactMap { line -> Int? in
                let words = line.split(separator: " ")
                guard words.count >= 2, words[0] == "read" || words[0] == "refused" else { return nil }
                return Int(words[1].trimmingCharacters(in: CharacterSet(charactersIn: ":")))
            })
            if result.endedBySignal {
                let crashed = batch.indices.first { !finished.contains($0) } ?? batch.count - 1
                crashes.append("signal \(result.exitCode) on \(batch[crashed].description)")
                next += crashed + 1
            } else {
                #expect(result.exitCode == 0, "\(result.standardError)")
                #expect(finished.count == batch.count, "every case reports read or refused")
                next += batch.count
            }
        }
        #expect(crashes.isEmpty, "seed \(Self.seed): \(crashes.joined(separator: "; "))")
    }

    /// The app's model versions and every model version of the shared fixtures (when present).
    private static func modelSources() -> [URL] {
        var roots = [SharedFixtures.packageRoot.appendingPathComponent("Resources/UnCloudNotesDataModel.xcdatamodeld")]
        if SharedFixtures.isAvailable { roots.append(SharedFixtures.fixturesFolder) }
        return roots.flatMap { files(named: "contents", under: $0) }
            .filter { $0.deletingLastPathComponent().pathExtension == "xcdatamodel" }
    }

    /// The app's mapping models and the shared fixtures' (when present), each with its models.
    private static func mappingSources() -> [(models: URL, mappings: [URL])] {
        let resources = SharedFixtures.packageRoot.appendingPathComponent("Resources")
        var groups = [(models: resources.appendingPathComponent("UnCloudNotesDataModel.xcdatamodeld"),
                       mappings: files(named: "xcmapping.xml", under: resources))]
        if SharedFixtures.isAvailable {
            let wibosco = SharedFixtures.url("wibosco-migration-example")
            groups.append((models: wibosco.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld"),
                           mappings: files(named: "xcmapping.xml", under: wibosco.appendingPathComponent("Mappings"))))
        }
        return groups
    }

    private static func files(named name: String, under root: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? [])
            .filter { $0.lastPathComponent == name }
            .sorted { $0.path < $1.path }
    }
}

/// One mutated file on disk, and what was done to it.
private struct FuzzCase: CustomStringConvertible {
    let path: String
    let description: String

    static func write(index: Int, from source: URL, random: inout SplitMix64, in folder: TemporaryFolder,
                      folderName: String, fileName: String) throws -> FuzzCase {
        var bytes = [UInt8](try Data(contentsOf: source))
        var applied: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            applied.append(Mutation.allCases.randomElement(using: &random)!.apply(to: &bytes, random: &random))
        }
        let caseFolder = folder.url.appendingPathComponent(folderName)
        try FileManager.default.createDirectory(at: caseFolder, withIntermediateDirectories: true)
        try Data(bytes).write(to: caseFolder.appendingPathComponent(fileName))
        // A model or mapping folder is read as a whole; a compiled model is the file itself.
        let readPath = fileName.hasSuffix(".mom") ? caseFolder.appendingPathComponent(fileName) : caseFolder
        return FuzzCase(path: readPath.path,
                        description: "case \(index) (\(source.lastPathComponent) of \(source.deletingLastPathComponent().lastPathComponent): \(applied.joined(separator: ", ")))")
    }
}

/// The ways a file is damaged: byte noise, cuts, invalid UTF-8, deep nesting and extreme numbers.
private enum Mutation: CaseIterable {
    case flipByte, truncate, insertBytes, deleteRange, duplicateRange, invalidUTF8, deepNesting, hugeNumber

    func apply(to bytes: inout [UInt8], random: inout SplitMix64) -> String {
        let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
        switch self {
        case .flipByte:
            guard !bytes.isEmpty else { return "flip on empty" }
            bytes[position] ^= UInt8.random(in: 1...255, using: &random)
            return "flip at \(position)"
        case .truncate:
            bytes.removeSubrange(position...)
            return "truncate at \(position)"
        case .insertBytes:
            let noise = (0..<Int.random(in: 1...16, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            bytes.insert(contentsOf: noise, at: position)
            return "\(noise.count) random bytes at \(position)"
        case .deleteRange:
            let end = min(bytes.count, position + Int.random(in: 1...200, using: &random))
            bytes.removeSubrange(position..<end)
            return "delete \(position)..<\(end)"
        case .duplicateRange:
            let end = min(bytes.count, position + Int.random(in: 1...400, using: &random))
            bytes.insert(contentsOf: Array(bytes[position..<end]), at: end)
            return "duplicate \(position)..<\(end)"
        case .invalidUTF8:
            let sequences: [[UInt8]] = [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xC0, 0xAF]]
            let sequence = sequences.randomElement(using: &random)!
            // Inside a name when one is near: right after the next '<'.
            let target = bytes[position...].firstIndex(of: UInt8(ascii: "<")).map { $0 + 2 } ?? position
            bytes.insert(contentsOf: sequence, at: min(target, bytes.count))
            return "invalid UTF-8 \(sequence) at \(target)"
        case .deepNesting:
            let depth = [100, 1_000, 100_000].randomElement(using: &random)!
            bytes.insert(contentsOf: Array(String(repeating: "<a>", count: depth).utf8), at: position)
            return "\(depth) nested elements at \(position)"
        case .hugeNumber:
            let numbers = ["99999999999999999999", "4294967296", "-1", "9223372036854775808", "1e309", "-0", "NaN"]
            let number = numbers.randomElement(using: &random)!
            let quote = UInt8(ascii: "\"")
            guard let open = bytes[position...].firstIndex(of: quote),
                  let close = bytes[(open + 1)...].firstIndex(of: quote) else { return "no value for \(number)" }
            bytes.replaceSubrange((open + 1)..<close, with: Array(number.utf8))
            return "value \(number) at \(open + 1)"
        }
    }
}
