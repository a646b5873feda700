import ArgumentParser
import Foundation
import UnCloudNotesKit

/// Times only issue 34's four keys (`p`, `s`, a tag filter, a title-only save) with the 10 MB
/// note, without the hour of migrations a full run takes: for working on the key path.
struct KeyPathsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Time p, s, a tag filter and a title-only save with a 10 MB note, key to painted screen (issue 34).")

    @OptionGroup var part: PartSizes

    func run() throws {
        let model = try UnCloudNotesModel.load()
        let results = try PartScratch.run { folder in
            try part.counts.map { count in
                // The benchmark's v1 store, upgraded to the current version by the app's stack.
                let store = folder.appendingPathComponent("keys-\(count).sqlite")
                try StoreGenerator.makeV1Store(at: store, notes: count, model: model)
                _ = try UnCloudNotesStack(storeURL: store).open()
                return try KeyPaths.measure(storeAt: store, notes: count, runs: part.runs, scratch: folder)
            }
        }
        print(KeyPaths.section(results).joined(separator: "\n"))
        print(KeyPaths.verdicts(results).map { "- \($0)" }.joined(separator: "\n"))
    }
}
