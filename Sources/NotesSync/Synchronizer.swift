import Foundation
import ManagedStore
import UnCloudNotesKit

/// `uncloudnotes sync`: the store's changes since the last sync (from its persistent history)
/// are committed to the mirror, the mirror merged with the remote, what the merge changed applied
/// to the store in one transaction authored "sync", and the result pushed; when the remote moved
/// meanwhile, fetch and merge again. docs/sync.md describes the steps and why each is safe to kill.
public struct Synchronizer {
    /// How many times sync goes back to fetching when the remote (or the store) moved meanwhile.
    static let attempts = 5

    let book: NoteBook
    let mirrorFolder: URL
    let machine: String
    /// This machine's age key, for encrypted mirrors.
    let identity: SyncIdentity
    /// The identity file given now (`--identity`), remembered for the next syncs.
    private let givenIdentity: URL?

    /// - Parameters:
    ///   - book: the store, opened at v5 (notes with identifiers).
    ///   - mirror: the mirror's folder (made on first sync).
    ///   - machine: this machine's name, which its commits and conflict copies carry; nil for
    ///     the name the last sync of this mirror ran under, else the host name.
    ///   - identity: the age identity file for encrypted mirrors; nil for the one the last sync
    ///     of this mirror was given, else `$XDG_CONFIG_HOME/uncloudnotes/age-identity.txt`.
    public init(book: NoteBook, mirror: URL, machine: String?, identity: URL? = nil) {
        self.book = book
        self.mirrorFolder = mirror
        // A state file that cannot be read is reported by the sync itself, which reads it again.
        let remembered = try? SyncState.read(in: mirror.appendingPathComponent(".git"))
        self.machine = machine ?? remembered?.machine ?? ProcessInfo.processInfo.hostName
        self.givenIdentity = identity
        let named = identity ?? remembered?.identityFile.map(URL.init(fileURLWithPath:))
        // A new --identity is this machine's change of key; the one it encrypted with before,
        // gone, is a lost key.
        self.identity = SyncIdentity(file: named ?? SyncIdentity.defaultFile(), mayCreate: named == nil,
                                     encryptedBefore: identity == nil && remembered?.acceptedRecipients != nil)
    }

    /// The default mirror of a store: `<store name>.mirror` beside it.
    public static func defaultMirror(for storeURL: URL) -> URL {
        storeURL.deletingPathExtension().appendingPathExtension("mirror")
    }

    /// Syncs, setting the remote first when `remote` is given. `encrypt`: from now on the
    /// mirror's files are encrypted (docs/sync.md); a plain mirror is converted in this round.
    public func sync(remote: String?, encrypt: Bool = false) throws(SyncError) -> SyncReport {
        try sync(remote: remote, changing: encrypt ? RecipientsChange(encrypt: true) : nil)
    }

    /// Syncs; `change`, when given, is recorded first and pushed by this sync (or a later one).
    func sync(remote: String?, changing change: RecipientsChange?) throws(SyncError) -> SyncReport {
        // The mirror's files and folders are private to the user, as the store is, whichever
        // program started the sync (the command, the app's S, a sync on open or quit).
        umask(0o077)
        var notes = try StoreNotes(context: syncContext(), version: book.capabilities.version)
        let mirror = try MirrorRepository.open(mirrorFolder, machine: machine, remote: remote)
        let lock = try SyncLock(in: mirror.gitDirectory, mirror: mirrorFolder)
        defer { withExtendedLifetime(lock) {} }
        var state = try currentState(of: mirror, notes: notes)
        var history: LocalChanges? = try repair(mirror, notes: notes, state: state)
        state.machine = machine
        if let givenIdentity { state.identityFile = givenIdentity.path }
        var setAside = try mirror.recover(busy: state.workingTreeBusy)
        // A change of recipients an earlier command recorded but did not push (interrupted, or
        // offline) is finished by this sync: said, never done in silence.
        let unfinished = change == nil ? state.recipientsChange : nil
        if let change { try record(change, in: mirror, state: &state) }
        let remoteURL: String
        if let remote {
            // To a new remote, an encrypted mirror sends only an encrypted history.
            try mirror.setRemote(remote) { _ throws(SyncError) in
                let listed = try mirror.keyFiles(at: nil).recipients != nil
                guard change?.encrypt == true || state.recipientsChange != nil || listed else { return }
                if try mirror.historyHoldsPlainNotes() { throw .plainHistory(mirror: mirrorFolder.path, remote: remote) }
            }
            remoteURL = remote
        } else {
            guard let remembered = try mirror.remoteURL else { throw .noRemote(mirror: mirrorFolder.path) }
            remoteURL = remembered
        }
        var restoredKeyFiles: [String] = []
        setAside = try mirror.commitHandEdits(cipher: { () throws(SyncError) in try cipher(readingAt: nil, in: mirror) },
                                              restoredKeyFiles: &restoredKeyFiles) ?? setAside
        var report = SyncReport()
        if let unfinished {
            report.notices.append("finishing the change of recipients an earlier command began ("
                + (unfinished.add.map { "adding \($0)" } + unfinished.remove.map { "removing \($0)" } + (unfinished.encrypt ? ["encrypting"] : []))
                    .joined(separator: ", ") + ")")
        }
        if !restoredKeyFiles.isEmpty {
            report.notices.append("\(restoredKeyFiles.joined(separator: " and ")) changed by hand in the mirror and put back: "
                + "recipients change only with `uncloudnotes sync recipients add/remove`")
        }
        if let setAside {
            report.notices.append("the mirror was reset from an interrupted state; files that differed from its last commit were copied to \(setAside.path)")
        }
        for _ in 0..<Self.attempts {
            // The remote first: it says whether the mirror is encrypted, before anything is committed.
            let theirs = try mirror.fetch(remote: remoteURL)
            // The remote's key files, read once for the round's cipher and its checks.
            let theirsKeys = try mirror.keyFiles(of: theirs)
            let cipher = try attributing(to: theirs, in: mirror) { () throws(SyncError) in
                try roundCipher(of: mirror, theirsKeys: theirsKeys, state: &state)
            }
            notes.imageNaming = cipher.imageNaming
            let rekeying = state.recipientsChange != nil
            try export(to: mirror, from: notes, cipher: cipher, rewriting: rekeying, history: history, state: &state, report: &report)
            history = nil
            if let theirs {
                report.conflicts += try attributing(to: theirs, in: mirror) { () throws(SyncError) in
                    try requireSealedNotes(from: theirs, keys: theirsKeys, in: mirror)
                    return try mirror.merge(theirs, message: "Merge \(RemoteAddress.redacted(remoteURL)) into \(machine)", cipher: cipher,
                                            resealing: rekeying, state: &state)
                }
            }
            guard try attributing(to: theirs, in: mirror, { () throws(SyncError) in
                try apply(mirror, to: notes, cipher: cipher, state: state, report: &report)
            }) else { continue }
            let head = try mirror.commit(named: "HEAD")
            // What the push gives the remote, whichever round committed it (an earlier one may
            // have failed after its export); read before the push, so nothing after it fails.
            let sent = try sentNotes(from: theirs, to: head, in: mirror, cipher: cipher, rekeying: rekeying)
            let plainRemote = theirs != nil && theirsKeys.recipients == nil
            let pushed = try mirror.push(remote: remoteURL)
            guard pushed != .remoteMoved else { continue }
            report.commit = head
            report.pushed = pushed != .alreadyThere
            (report.sent, report.reencrypted) = sent
            if pushed == .pushed(created: true), let notice = try mirror.defaultBranchNotice(remote: remoteURL) { report.notices.append(notice) }
            if let keys = cipher.keys { state.acceptedRecipients = keys.recipients.map(\.description) }
            if let change = state.recipientsChange {
                report.notices += Self.notices(after: change, cipher: cipher, mirror: mirrorFolder, plainRemote: plainRemote)
                state.recipientsChange = nil
            }
            state.lastSynced = Date()
            try state.write(in: mirror.gitDirectory)
            if let token = state.exportedThrough {
                try HistoryReaders.record(token, by: mirrorFolder, in: notes.context.store)
            }
            return report
        }
        throw .tooManyRetries(Self.attempts)
    }

    /// What a sync would move, leaving the store and the mirror's branches as they are (the
    /// remote is fetched when the mirror exists, to compare with it).
    public func dryRun(remote: String?) throws(SyncError) -> SyncReport {
        umask(0o077) // A fetch writes into the mirror: privately, as a sync does.
        let notes = try StoreNotes(context: syncContext(), version: book.capabilities.version)
        var report = SyncReport(dryRun: true)
        let mirror = Self.mirrorExists(at: mirrorFolder) ? try MirrorRepository.open(mirrorFolder, machine: machine, remote: nil) : nil
        var state = SyncState()
        var tip: String?
        if let mirror {
            state = try currentState(of: mirror, notes: notes)
            tip = try mirror.storeTip
        }
        let pending = try storeCall { try PendingExport(notes, since: tip == nil ? nil : state.exportedThrough) }
        let mirrored = if let tip, let mirror { try mirror.notePaths(in: tip) } else { Set<String>() }
        for path in try storeCall({ try pending.notePaths(of: notes) }) {
            if mirrored.contains(path) { report.sent.changed += 1 } else { report.sent.added += 1 }
        }
        report.sent.deleted = pending.removed.count
        // Only the remote the mirror already has is fetched: a new --remote is set by a real sync.
        guard let mirror, let remoteURL = try mirror.remoteURL, remote == nil || remote == remoteURL,
              let theirs = try mirror.fetch(remote: remoteURL) else { return report }
        let ours = try mirror.commit(named: "HEAD") ?? MirrorRepository.emptyTree
        let from = ours == MirrorRepository.emptyTree ? ours : try mirror.mergeBase(ours, theirs)
        let ourNotes = try mirror.notePaths(in: ours)
        for change in try mirror.changedNotes(from: from, to: theirs) {
            if change.kind == .deleted { report.received.deleted += 1 } else if ourNotes.contains(change.path) {
                report.received.changed += 1
            } else { report.received.added += 1 }
        }
        return report
    }

    // MARK: Steps

    /// A context of its own on the book's store, whose saves history records as sync's.
    func syncContext() -> ManagedObjectContext {
        let context = ManagedObjectContext(store: book.context.store)
        context.transactionAuthor = LocalChanges.syncAuthor
        return context
    }

    /// The mirror's state, started afresh for another store; `repairing` brings the mirror up to
    /// an apply whose transaction committed but whose mirror ref was not moved before a kill.
    private func currentState(of mirror: MirrorRepository, notes: StoreNotes) throws(SyncError) -> SyncState {
        var state = try SyncState.read(in: mirror.gitDirectory)
        let uuid = notes.context.store.metadata.storeUUID
        if state.storeUUID != uuid { state = SyncState(storeUUID: uuid) }
        return state
    }

    /// The history since the last export; and the mirror brought up to an apply whose
    /// transaction committed but whose mirror ref was not moved before a kill. The export reads
    /// on from this history, so a sync reads each transaction once.
    private func repair(_ mirror: MirrorRepository, notes: StoreNotes, state: SyncState) throws(SyncError) -> LocalChanges {
        let history = try storeCall { try LocalChanges(after: state.exportedThrough, in: notes.context) }
        if let applied = history.syncTransactions.last?.contextName.flatMap(Self.appliedCommit), try mirror.storeTip != applied,
           try mirror.commit(named: applied) != nil {
            try mirror.setStoreTip(applied)
        }
        return history
    }

    /// Step 1: the store's changes since the last export, committed on the store's branch and
    /// merged into `main`. The first sync of a store exports all its notes.
    /// `rewriting`: every note and image file is written anew (encrypted for a new set of
    /// recipients), with the mirror's key files.
    /// `history`: what was read since the state's export token, to read on from.
    private func export(to mirror: MirrorRepository, from notes: StoreNotes, cipher: MirrorCipher, rewriting: Bool, history: LocalChanges?,
                        state: inout SyncState, report: inout SyncReport) throws(SyncError) {
        let tip = try mirror.storeTip
        let everything = tip == nil || rewriting
        let pending = try storeCall {
            try PendingExport(notes, since: everything ? nil : state.exportedThrough, readSoFar: everything ? nil : history)
        }
        if tip == nil || !pending.isEmpty {
            let kept = if let tip, cipher.isEncrypted, !rewriting {
                try SealedTip(mirror, commit: tip, notes: try storeCall { try pending.notePaths(of: notes) }, cipher: cipher)
            } else { SealedTip?.none }
            // Every deleted note's file is removed; fast-import passes over one the commit lacks.
            // A rewrite removes every note and image file first: what the store has is written again.
            let removed = if rewriting { ["images", "notes"] } else if let tip, pending.everything {
                // Everything again on a commit the store held (its export token was lost to a
                // kill): a note file whose note the store no longer has was deleted here.
                try mirror.notePaths(in: tip).subtracting(try storeCall { try pending.notePaths(of: notes) }).sorted()
            } else { pending.removed }
            // Commit messages carry no titles: the remote may be one that must not read them.
            let made = try mirror.commit(on: tip, removing: removed, message: "Notes changed on \(machine)") { files throws(SyncError) in
                if tip == nil { files.add(MirrorRepository.marker, Data(MirrorRepository.markerText.utf8)) }
                if rewriting { try cipher.keyFiles().forEach { files.add($0.path, $0.bytes) } }
                try storeCall {
                    try pending.forEachFile(of: notes) { path, bytes throws(SyncError) in
                        if kept?.holds(path, bytes) != true { files.add(path, try cipher.seal(bytes)) }
                    }
                }
            }
            let changed = if let tip { try !mirror.sameFiles(tip, made) } else { true }
            if changed { try mirror.setStoreTip(made) }
        }
        // Read from the start (a rewrite), history pruned before the last export reads as none.
        // Everything exported from a store with no history yet is exported through token 0: the
        // next export reads the history from its start, skipping sync's own applies, instead of
        // taking a missing token for a lost one and exporting (and a dry run counting) every note again.
        state.exportedThrough = pending.lastToken ?? state.exportedThrough ?? (pending.everything ? 0 : nil)
        try state.write(in: mirror.gitDirectory)
        if let tip = try mirror.storeTip {
            report.conflicts += try mirror.merge(tip, message: "Notes changed on \(machine)", cipher: cipher, resealing: rewriting, state: &state)
        }
    }

    /// How many received notes one apply transaction writes: the context holds one batch (its
    /// images included) at a time, and other writers get the store between batches.
    static let applyBatch = 500

    /// Step 3: what the merges changed in the mirror since the store's commit, written to the
    /// store by sync (author "sync") in transactions of `applyBatch` notes; the last one's
    /// context name records the commit, and then `refs/uncloudnotes/store` moves to it. Every
    /// file is read first, so one that does not read stops the sync before any is written.
    /// Returns false when a note it would write changed in the store since the export (that
    /// change goes first, the next round applying the rest): changes to other notes do not
    /// hold it up, so a sync finishes beside other writers.
    private func apply(_ mirror: MirrorRepository, to notes: StoreNotes, cipher: MirrorCipher, state: SyncState,
                       report: inout SyncReport) throws(SyncError) -> Bool {
        guard let tip = try mirror.storeTip, let head = try mirror.commit(named: "HEAD"), tip != head else { return true }
        let changes = try mirror.changedNotes(from: tip, to: head)
        for change in changes where change.kind != .deleted {
            for image in try receivedNote(change.path, in: mirror, cipher: cipher).images {
                try Self.requireImageFile(image.file, of: change.path, in: mirror)
            }
        }
        var local = try storeCall { try LocalChanges(after: state.exportedThrough, in: notes.context) }
        for start in stride(from: 0, to: changes.count, by: Self.applyBatch) {
            let batch = changes[start..<min(start + Self.applyBatch, changes.count)]
            let isLast = batch.endIndex == changes.count
            notes.context.name = isLast ? Self.contextName(applying: head) : Self.partContextPrefix + head
            guard try applyBatch(batch, from: mirror, to: notes, cipher: cipher, local: &local, report: &report) else { return false }
        }
        try mirror.setStoreTip(head)
        return true
    }

    /// One transaction of `apply`. `local` is the store's own changes since the export, read on
    /// from where it was before each batch.
    private func applyBatch(_ batch: ArraySlice<GitAnswer.Change>, from mirror: MirrorRepository, to notes: StoreNotes, cipher: MirrorCipher,
                            local: inout LocalChanges, report: inout SyncReport) throws(SyncError) -> Bool {
        var incoming: [(path: String, note: MirrorNote?)] = []
        for change in batch {
            incoming.append((change.path, change.kind == .deleted ? nil : try receivedNote(change.path, in: mirror, cipher: cipher)))
        }
        let context = notes.context
        return try storeCall {
            defer { context.reset() }
            var received = SyncReport.Counts()
            // Every note is looked up before the first write (see NoteWriter).
            let existing = try incoming.map { change in try MirrorNote.identifier(inPath: change.path).flatMap(notes.note(identifier:)) }
            // Objects were read above: a write by another process after this check fails the
            // save (optimistic locking); one before it, to a note written here, is seen here
            // and exported first.
            local.add(try LocalChanges(after: local.lastToken, in: context))
            let touched = existing.contains { $0?.objectID.primaryKey.map(local.changedNotes.contains) == true }
                || incoming.contains { MirrorNote.identifier(inPath: $0.path).map(local.deletedNotes.contains) == true }
            guard !touched else { return false }
            let writer = try NoteWriter(notes)
            for ((path, note), object) in zip(incoming, existing) {
                if let note {
                    if try writer.write(note, over: object, image: { file in try Self.imageFile(file, of: path, in: mirror, cipher: cipher) }) {
                        object == nil ? (received.added += 1) : (received.changed += 1)
                    }
                } else if let object {
                    writer.delete(object)
                    received.deleted += 1
                }
            }
            do {
                if context.hasChanges { try context.save() }
            } catch ContextError.conflict {
                // Another process changed one of these notes after they were read: its change is
                // exported on the next round, then merged, never written over.
                context.rollback()
                return false
            }
            report.received.added += received.added
            report.received.changed += received.changed
            report.received.deleted += received.deleted
            return true
        }
    }

    private func receivedNote(_ path: String, in mirror: MirrorRepository, cipher: MirrorCipher) throws(SyncError) -> MirrorNote {
        try MirrorNoteFile.parse(String(decoding: try cipher.open(try mirror.workingFile(path), path: path), as: UTF8.self), path: path)
    }

    /// An image file a received note names must be there (`missingImageFile` if not).
    private static func requireImageFile(_ file: String, of note: String, in mirror: MirrorRepository) throws(SyncError) {
        guard FileManager.default.fileExists(atPath: mirror.folder.appendingPathComponent(file).path) else {
            throw .missingImageFile(note: note, file: file)
        }
    }

    /// An image file a received note names: missing is its own error; one that cannot be read
    /// is a file error, never taken for missing.
    private static func imageFile(_ file: String, of note: String, in mirror: MirrorRepository, cipher: MirrorCipher) throws(SyncError) -> Data {
        try requireImageFile(file, of: note, in: mirror)
        return try cipher.open(try mirror.workingFile(file), path: file)
    }

    // MARK: Helpers

    static let contextPrefix = "sync "
    /// The context name of an apply's transactions before its last: they record no commit, as
    /// the store holds all of it only once the last one is saved.
    static let partContextPrefix = "partial sync "

    /// The context name of an apply: it records the mirror commit the store now holds.
    static func contextName(applying commit: String) -> String { contextPrefix + commit }

    static func appliedCommit(_ contextName: String) -> String? {
        contextName.hasPrefix(contextPrefix) ? String(contextName.dropFirst(contextPrefix.count)) : nil
    }

    /// Runs store work, keeping sync's own errors and wrapping the store's.
    func storeCall<Result>(_ work: () throws -> Result) throws(SyncError) -> Result {
        do {
            return try work()
        } catch let error as SyncError {
            throw error
        } catch {
            throw .store(error)
        }
    }
}
