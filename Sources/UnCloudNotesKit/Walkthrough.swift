import Foundation
import ManagedStore
import UnCloudNotesResources

/// Replays the chapter on real stores, step by step: the v1 app makes notes, v2 upgrades in place
/// and adds images, v3 moves them into attachments with a mapping model, v4 makes image
/// attachments with a custom policy, old stores skip straight to v4, one step at a time; and
/// after the chapter, v5 gives notes identifiers, pins, modified dates and tags, with a mapping
/// model and a set-based policy, migrating the walkthrough's v4 store.
public struct Walkthrough {
    /// The chapter's default body for new notes, so creating test notes is quick.
    public static let loremIpsum = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris."

    /// The five steps' titles, as the banner and the step headings show them.
    public static let stepTitles = [
        "v1: the first app makes notes",
        "v2: a lightweight migration, in place; notes get images",
        "v3: a mapping model moves images into attachments",
        "v4: a custom policy makes image attachments with captions and sizes",
        "skipping versions: old stores go straight to v4, one step at a time",
        "v5: after the chapter (identifiers, pins, modified dates, tags)",
    ]

    /// How many steps there are.
    public static var stepCount: Int { stepTitles.count }

    /// The folder the walkthrough's stores live in.
    public let folder: URL
    /// Where each line of output goes.
    public let print: (String) -> Void
    /// Called with the stack at each version when the user wants to add notes by hand (the
    /// terminal UI), and a banner naming the walkthrough's step, for the app to show; nil to run
    /// without pausing.
    public let interactive: ((UnCloudNotesStack, _ banner: String) throws -> Void)?
    /// Says the migrations as the chapter's app did.
    private let console = MigrationConsole()

    /// A walkthrough in `folder`, printing through `print`; `interactive` pauses at each version.
    public init(folder: URL, interactive: ((UnCloudNotesStack, _ banner: String) throws -> Void)? = nil, print: @escaping (String) -> Void) {
        self.folder = folder
        self.interactive = interactive
        self.print = print
    }

    /// The walkthrough's own store, in its folder.
    public var storeURL: URL { folder.appendingPathComponent(StoreLocation.fileName) }

    /// Step 5's old stores: the version that writes each, and its file in the folder.
    private static let oldStores = [(version: "v1", name: "skipping-from-v1.sqlite"), (version: "v2", name: "skipping-from-v2.sqlite")]

    /// Runs steps `firstStep` through `lastStep` (1...6); a first step after 1 goes on from
    /// where an earlier run in the same folder stopped (see `stepsDone`).
    public func run(from firstStep: Int = 1, through lastStep: Int = Walkthrough.stepCount) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let steps: [() throws -> Void] = [stepOne, stepTwo, stepThree, stepFour, stepFive, stepSix]
        for number in max(1, firstStep)...max(1, min(lastStep, Self.stepCount)) {
            print("")
            print("━━ Step \(number): \(Self.stepTitles[number - 1])")
            try steps[number - 1]()
        }
        print("")
        print("The stores are kept in \(folder.path)")
    }

    /// How many steps a walkthrough has done in the folder, read from what it left there: 0 for
    /// a folder without its store, 1 to 4 for the store's version (step N leaves it at vN), 5
    /// once step 5 made its old stores, 6 once step 6 took the store to v5. So a run stopped by
    /// `--step` can go on later.
    public func stepsDone() throws -> Int {
        let migrator = try UnCloudNotesStack(storeURL: storeURL).migrator
        let state = try migrator.state()
        // Step 6 leaves the store at the current version, v5.
        if case .current = state { return Self.stepCount }
        if Self.oldStores.contains(where: { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0.name).path) }) {
            return 5
        }
        let version: ManagedObjectModel
        switch state {
        case .missing: return 0
        case .current(let found), .cannotMigrate(let found, _): version = found
        case .needsMigration(let plan): version = plan.source
        case .newer, .unknown: throw WalkthroughError.notAWalkthroughStore(storeURL)
        }
        return (migrator.model.versions.firstIndex { $0.name == version.name } ?? 0) + 1
    }

    // MARK: Steps

    private func stepOne() throws {
        let stack = try UnCloudNotesStack(storeURL: storeURL, versionName: "v1")
        let book = try stack.open()
        for (index, title) in ["First note", "Shopping", "Ideas"].enumerated() {
            try book.add(NoteDraft(title: title, body: Self.loremIpsum), date: Date(timeIntervalSinceNow: Double(index - 3) * 60))
        }
        try book.context.store.close()
        print("The v1 app created \(storeURL.lastPathComponent) with three notes. Its tables:")
        try showSchema(of: storeURL)
        try pause(at: stack, step: 1)
        try showContents(stack)
    }

    private func stepTwo() throws {
        try showModelDiff(to: 2)
        let stack = try migrate(to: "v2")
        let book = try stack.open()
        for (note, name) in zip(try book.noteIDs(page: ListPage(limit: 2)), ["sunset.png", "leaf.jpg"]) {
            try book.attach([try sampleImage(name)], to: note)
        }
        try book.context.store.close()
        print("Two notes got an image (Note.image, through ImageTransformer).")
        try pause(at: stack, step: 2)
        try showContents(stack)
    }

    private func stepThree() throws {
        try mappingModelStep(to: 3, step: 3)
    }

    private func stepFour() throws {
        try mappingModelStep(to: 4, step: 4) {
            print("Captions are the first \(AttachmentToImageAttachmentMigrationPolicyV3toV4.captionLength) characters of each note's body; width and height come from the image headers.")
        }
    }

    /// After the chapter: the walkthrough's v4 store reaches v5 through the app's own mapping
    /// model and policy, as the chapter's v3 -> v4 did.
    private func stepSix() throws {
        try mappingModelStep(to: 5, step: 6) {
            print("Each note and image gets a new identifier (a UUID, unique across notes and attachments) from the policy, "
                + "computed by the store in one SQL function (set-based); a note's modified date is its creation date; nothing is pinned; "
                + "Tag starts empty. The identifiers are preserved after deletion, so history keeps them for a deleted note.")
        }
    }

    /// Shows the mapping model from the previous version, migrates with it, shows the result.
    private func mappingModelStep(to version: Int, step: Int, afterwards: () -> Void = {}) throws {
        try showModelDiff(to: version)
        let stack = try UnCloudNotesStack(storeURL: storeURL, versionName: "v\(version)")
        if let mapping = MappingModel.find(in: stack.mappingModels, from: stack.model.versions[version - 2],
                                           to: stack.model.versions[version - 1]) {
            MappingModelReport(mapping).lines.forEach(print)
        }
        _ = try migrate(to: "v\(version)")
        afterwards()
        try pause(at: stack, step: step)
        try showContents(stack)
    }

    private func stepFive() throws {
        for (version, name) in Self.oldStores {
            let url = folder.appendingPathComponent(name)
            let old = try UnCloudNotesStack(storeURL: url, versionName: version)
            let book = try old.open()
            let images = version == "v2" ? [try sampleImage("dots.png")] : []
            try book.add(NoteDraft(title: "Written by the \(version) app", body: Self.loremIpsum), images: images)
            try book.context.store.close()
            print("")
            print("A \(version) store, \(name), opened by the v4 app:")
            let chapterApp = try UnCloudNotesStack(storeURL: url, versionName: "v4")
            try chapterApp.migrator.migrateIfNeeded(observer: report(migrating: url))
            try showContents(chapterApp)
        }
    }

    // MARK: Helpers

    /// Opens the store as the given version, printing the migration as it runs.
    private func migrate(to version: String) throws -> UnCloudNotesStack {
        let stack = try UnCloudNotesStack(storeURL: storeURL, versionName: version)
        try stack.migrator.migrateIfNeeded(observer: report(migrating: storeURL))
        return stack
    }

    /// Prints the events of the migration of the store at `store` (the walkthrough's own, or
    /// step 5's old stores), naming that store.
    private func report(migrating store: URL) -> (MigrationEvent) -> Void {
        { event in
            switch event {
            case .planned(let plan):
                print("Plan: \(plan.steps.map { "\($0.source.name) → \($0.destination.name) (\($0.kindDescription))" }.joined(separator: "; "))")
            case .backupCreated(let path, _): print("Backup: \(path)")
            default: console.lines(for: event, store: store).forEach(print)
            }
        }
    }


    /// What changes from the version before, and how Core Data would migrate each change
    /// (`uncloudnotes model diff`).
    private func showModelDiff(to version: Int) throws {
        let model = try UnCloudNotesModel.load()
        print("What changes (uncloudnotes model diff v\(version - 1) v\(version)):")
        ModelDiff(from: model.versions[version - 2], to: model.versions[version - 1]).lines.dropFirst().forEach { print("  \($0)") }
    }

    private func showSchema(of url: URL) throws {
        try StoreTableDefinitions.statements(ofStoreAt: url).forEach { print("  \($0)") }
    }

    private func showContents(_ stack: UnCloudNotesStack) throws {
        let store = try PersistentStore.open(at: stack.storeURL, model: stack.version, options: StoreOptions(isReadOnly: true))
        // Closing a read-only store after reading has nothing left to lose.
        defer { try? store.close() }
        print("Contents at \(stack.versionLabel):")
        try StoreTable.lines(for: ManagedObjectContext(store: store), dateText: { LocalDates.iso8601($0) }).forEach(print)
    }

    private func pause(at stack: UnCloudNotesStack, step: Int) throws {
        guard let interactive else { return }
        print("Opening the \(stack.versionLabel) app: add notes if you like, then press q to go on.")
        try interactive(stack, Self.banner(step: step, version: stack.versionLabel))
    }

    /// What the app shows while the walkthrough pauses in it: which step, and how to go on.
    public static func banner(step: Int, version: String) -> String {
        "Walkthrough step \(step) of \(stepTitles.count): \(stepTitles[step - 1]) · the \(version) app: add notes, q goes on"
    }

    private func sampleImage(_ name: String) throws -> NoteImage {
        try NoteImage(contentsOf: UnCloudNotesResources.url(named: "SampleImages/\(name)"))
    }
}

/// Why a walkthrough cannot go on in a folder.
public enum WalkthroughError: Error, CustomStringConvertible {
    /// The folder's store was not written by the app's versions.
    case notAWalkthroughStore(URL)

    /// One line naming the folder and what is wrong.
    public var description: String {
        switch self {
        case .notAWalkthroughStore(let url): "\(url.path): not a store of the walkthrough (no version of the app wrote it)"
        }
    }
}
