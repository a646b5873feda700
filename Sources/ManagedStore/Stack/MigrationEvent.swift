/// What a self-migrating store reports while it upgrades, for a terminal UI, a progress bar on
/// the command line or plain log lines.
public enum MigrationEvent: Sendable {
    /// Another process holds the store's lock (it is migrating it); this one waits.
    case waitingForLock
    /// Files left by an interrupted migration were removed.
    case cleanedLeftovers([String])
    /// The steps that will run, known before any file is written.
    case planned(MigrationPlan)
    /// The backup of the store as it was, made here: before an in-place step changes the store (a
    /// copy), or once a copying migration's new file is complete, just before it replaces the
    /// store (then usually a hard link to the old store, which was only read). `method` says
    /// which: a copy before an in-place step is a clone where the file system can make one.
    case backupCreated(path: String, method: FileDuplication)
    /// A step begins: its versions, and how it maps (inferred changes or a mapping model). The
    /// chapter's console lines are the app's to print (`MigrationConsole` in UnCloudNotesKit).
    case stepStarted(index: Int, step: MigrationStep)
    /// Consecutive steps, `first` through `last`, run as one pass of one composed mapping; sent
    /// before their `stepStarted` events.
    case composedPass(first: MigrationStep, last: MigrationStep, mapping: MappingModel)
    /// Progress within the step (0...1) and over the whole plan (0...1).
    case progress(step: Int, stepFraction: Double, overallFraction: Double, detail: String?)
    /// A pass (one step, or consecutive steps composed) is done: what it read and wrote, per entity
    /// mapping, and how long it took. Sent before its steps' `stepFinished` events.
    case passFinished(MigrationStatistics)
    /// Step `index` of the plan is done (a composed pass ends all its steps at once).
    case stepFinished(index: Int)
    /// The store is migrated, but something after it was replaced failed (making the rename
    /// durable, handing a new folder to the store's owner): reported rather than thrown, since
    /// the migration itself succeeded and the backup holds the old version.
    case warning(String)
    /// The last stage, with the store migrated: its text index (`StoreMigrator.textIndex`) is
    /// being built, `fraction` (0...1) of it done, so the first search after the upgrade does
    /// not build it and a big store's wait is seen.
    case indexingText(fraction: Double)
    /// The text index is up to date: how many objects were folded into it (none when the
    /// migration carried it) and how long the stage took.
    case textIndexed(objects: Int, seconds: Double)
    /// The store is at the target version; the last event.
    case finished
}
