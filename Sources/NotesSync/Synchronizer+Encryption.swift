import AgeEncryption
import Foundation

/// One recipient of an encrypted mirror, as `sync recipients list` shows it.
public struct SyncRecipient: Codable, Equatable, Sendable {
    /// The public key, `age1…`.
    public let key: String
    /// Whether it is this machine's own key.
    public let isThisMachine: Bool
}

extension Synchronizer {
    /// The recipients the mirror lists (with a change not yet pushed applied).
    public func recipients() throws(SyncError) -> [SyncRecipient] {
        let (mirror, state) = try existingMirror()
        let listed = try recipients(of: mirror, state: state)
        let own = Set((try identity.read() ?? []).map(\.recipient))
        return listed.map { SyncRecipient(key: $0.description, isThisMachine: own.contains($0)) }
    }

    /// Adds a recipient: every file is encrypted again for the new set, in one commit, and
    /// pushed. `dryRun`: the change is checked and described, nothing is written.
    public func addRecipient(_ key: String, dryRun: Bool = false) throws(SyncError) -> SyncReport {
        let recipient = try Self.recipient(key)
        let (mirror, state) = try existingMirror()
        let listed = try recipients(of: mirror, state: state)
        // A key the mirror lists that this machine has not accepted yet is accepted by adding it.
        let accepted = state.acceptedRecipients.map { $0.contains(recipient.description) } ?? true
        guard !listed.contains(recipient) || !accepted else { throw .recipientsRefused(.alreadyListed(key)) }
        let change = RecipientsChange(add: [recipient.description])
        let listedRemotely = try fetchedRecipients(of: mirror).contains(recipient)
        if listed.contains(recipient) || listedRemotely {
            // Listed (by another machine, in the remote as last fetched) but not accepted here:
            // accepting rewrites nothing.
            let said = "\(dryRun ? "would accept" : "accepted") \(key), which the mirror lists already: nothing is encrypted again"
            var report = dryRun ? SyncReport(dryRun: true) : try sync(remote: nil, changing: change)
            report.notices.append(said)
            return report
        }
        if dryRun { return try Self.plan(change, listed: listed, notes: try mirror.commit(named: "HEAD").map(mirror.notePaths(in:))?.count ?? 0) }
        return try sync(remote: nil, changing: change)
    }

    /// Removes a recipient: every file is encrypted again for the others and pushed (the removed
    /// key can still read what the remote's history held before). `dryRun`: checked and
    /// described, nothing written.
    public func removeRecipient(_ key: String, dryRun: Bool = false) throws(SyncError) -> SyncReport {
        let recipient = try Self.recipient(key)
        let (mirror, state) = try existingMirror()
        let listed = try recipients(of: mirror, state: state)
        guard listed.contains(recipient) else { throw .recipientsRefused(.notListed(key)) }
        guard listed.count > 1 else { throw .recipientsRefused(.lastRecipient) }
        guard try !(identity.read() ?? []).contains(where: { $0.recipient == recipient }) else { throw .recipientsRefused(.ownKey(key)) }
        let change = RecipientsChange(remove: [recipient.description])
        if dryRun { return try Self.plan(change, listed: listed, notes: try mirror.commit(named: "HEAD").map(mirror.notePaths(in:))?.count ?? 0) }
        return try sync(remote: nil, changing: change)
    }

    /// What a change of recipients would do, as a dry run's report.
    /// `notes`: how many note files the mirror holds, each of which would be encrypted again.
    private static func plan(_ change: RecipientsChange, listed: [AgeRecipient], notes: Int) throws(SyncError) -> SyncReport {
        let count = try change.applied(to: listed).count
        var report = SyncReport(dryRun: true)
        report.reencrypted = notes
        report.notices = ["would encrypt every note and image file again for \(count) recipient\(count == 1 ? "" : "s")"
            + change.add.map { ", adding \($0)" }.joined() + change.remove.map { ", removing \($0)" }.joined() + ", and push"]
        return report
    }

    // MARK: For the sync round

    /// Records a change of recipients in the state, on top of one not yet pushed.
    func record(_ change: RecipientsChange, in mirror: MirrorRepository, state: inout SyncState) throws(SyncError) {
        var pending = state.recipientsChange ?? RecipientsChange()
        pending.encrypt = pending.encrypt || change.encrypt
        for key in change.add {
            pending.remove.removeAll { $0 == key }
            if !pending.add.contains(key) { pending.add.append(key) }
        }
        for key in change.remove {
            pending.add.removeAll { $0 == key }
            if !pending.remove.contains(key) { pending.remove.append(key) }
        }
        state.recipientsChange = pending
        try state.write(in: mirror.gitDirectory)
    }

    /// The cipher the mirror's key files describe, in `commit` (the working tree when nil).
    func cipher(readingAt commit: String?, in mirror: MirrorRepository) throws(SyncError) -> MirrorCipher {
        let files = try mirror.keyFiles(at: commit)
        return try MirrorCipher.reading(recipients: files.recipients, nameKey: files.nameKey, identity: identity)
    }

    /// The cipher of a round: the remote's key files when it moved (another machine may have
    /// changed the recipients), else the mirror's; with a pending change of recipients applied,
    /// which makes the round rewrite every file. A change that changes nothing is dropped.
    /// A recipient this machine has not accepted (it encrypted for it, joined with it listed, or
    /// was told with `recipients add`) stops the round before anything is encrypted for it: a
    /// host can write the recipients file too, and would otherwise read every later note.
    /// `theirsKeys`: the key files of `theirs` (`MirrorRepository.keyFiles(of:)`), read once a round.
    func roundCipher(of mirror: MirrorRepository, theirsKeys: MirrorRepository.KeyFiles, state: inout SyncState) throws(SyncError) -> MirrorCipher {
        let current = try MirrorCipher.reading(recipients: theirsKeys.recipients, nameKey: theirsKeys.nameKey, identity: identity)
        // Once this machine has encrypted for a mirror, a mirror without recipients is one whose
        // recipients file was removed (by the host, say): sync never sends notes plain again.
        if !current.isEncrypted, state.acceptedRecipients != nil { throw .encryptionRemoved }
        if let listed = current.keys?.recipients, let accepted = state.acceptedRecipients {
            let approved = Set(accepted + (state.recipientsChange?.add ?? []))
            let unknown = listed.map(\.description).filter { !approved.contains($0) }
            if !unknown.isEmpty { throw .unacceptedRecipients(unknown) }
        }
        guard let change = state.recipientsChange else { return current }
        guard current.isEncrypted || change.encrypt else { throw .recipientsRefused(.notEncrypted) }
        let identities = try identity.readOrCreate()
        let listed = current.keys?.recipients ?? [identities[0].recipient]
        let wanted = try change.applied(to: listed)
        guard !wanted.isEmpty else { throw .recipientsRefused(.lastRecipient) }
        if current.isEncrypted, wanted == listed {
            state.recipientsChange = nil
            try state.write(in: mirror.gitDirectory)
            return current
        }
        return .new(recipients: wanted, identities: identities, nameKey: current.keys?.nameKey)
    }

    /// The note files `head` changes from `theirs` (the remote's), by how they changed; in a
    /// round that encrypts every file again, a file whose text is unchanged is counted apart.
    func sentNotes(from theirs: String?, to head: String?, in mirror: MirrorRepository, cipher: MirrorCipher,
                   rekeying: Bool) throws(SyncError) -> (SyncReport.Counts, reencrypted: Int) {
        let changes = try mirror.changedNotes(from: theirs ?? MirrorRepository.emptyTree, to: head ?? MirrorRepository.emptyTree)
        guard rekeying, let theirs, let head else { return (SyncReport.Counts(changes), 0) }
        var unchanged = Set<String>()
        let modified = changes.filter { $0.kind == .modified }.map(\.path)
        for start in stride(from: 0, to: modified.count, by: 256) {
            let batch = Array(modified[start..<min(start + 256, modified.count)])
            let files = try mirror.files(batch.flatMap { [(theirs, $0), (head, $0)] })
            for (index, path) in batch.enumerated() {
                guard let before = files[2 * index], let after = files[2 * index + 1] else { continue }
                if try cipher.open(before, path: path) == cipher.open(after, path: path) { unchanged.insert(path) }
            }
        }
        return (SyncReport.Counts(changes.filter { !unchanged.contains($0.path) }), unchanged.count)
    }

    /// What the user is told once a change of recipients is pushed. `plainRemote`: the remote
    /// held a plain mirror before (a new, empty one has no plain history to warn of).
    static func notices(after change: RecipientsChange, cipher: MirrorCipher, mirror: URL, plainRemote: Bool) -> [String] {
        let count = cipher.keys?.recipients.count ?? 0
        let recipients = "\(count) recipient\(count == 1 ? "" : "s")"
        var notices = [change.encrypt ? "every note and image file is now encrypted for \(recipients) (this machine's key: see `uncloudnotes sync recipients list`)"
            : "every note and image file was encrypted again for \(recipients)"]
        if change.encrypt && plainRemote {
            notices.append("if this remote held the notes before, its history still holds them in plain text: to leave them behind, "
                + "move \(mirror.path) aside and sync with --encrypt --remote NEW-URL, a new empty repository")
        }
        if !change.remove.isEmpty {
            notices.append("a removed key can still read what the remote's history held before this sync; start a new remote to leave it behind")
        }
        return notices
    }

    // MARK: Helpers

    private func existingMirror() throws(SyncError) -> (MirrorRepository, SyncState) {
        guard Self.mirrorExists(at: mirrorFolder) else { throw .recipientsRefused(.noMirror(mirrorFolder.path)) }
        let mirror = try MirrorRepository.open(mirrorFolder, machine: machine, remote: nil)
        return (mirror, try SyncState.read(in: mirror.gitDirectory))
    }

    /// The recipients the remote's `main` listed when last fetched; none when it listed none.
    private func fetchedRecipients(of mirror: MirrorRepository) throws(SyncError) -> [AgeRecipient] {
        guard let fetched = try mirror.commit(named: MirrorRepository.trackingRef),
              let file = try mirror.keyFiles(at: fetched).recipients else { return [] }
        return try MirrorCipher.parseRecipients(file)
    }

    /// The recipients the mirror's working tree lists, with the change not yet pushed applied.
    private func recipients(of mirror: MirrorRepository, state: SyncState) throws(SyncError) -> [AgeRecipient] {
        let listed = try mirror.keyFiles(at: nil).recipients.map { file throws(SyncError) in try MirrorCipher.parseRecipients(file) }
        guard let change = state.recipientsChange else {
            guard let listed else { throw try whyNotEncrypted(mirror) }
            return listed
        }
        if let listed { return try change.applied(to: listed) }
        guard change.encrypt else { throw try whyNotEncrypted(mirror) }
        return try change.applied(to: [try identity.readOrCreate()[0].recipient])
    }

    /// Why a mirror whose working tree is plain has no recipients: the remote, as last fetched,
    /// may be encrypted already (for this machine, which has not synced since, or not:
    /// `notARecipient` then tells its key), or not at all.
    private func whyNotEncrypted(_ mirror: MirrorRepository) throws(SyncError) -> SyncError {
        guard let fetched = try mirror.commit(named: MirrorRepository.trackingRef),
              try mirror.keyFiles(at: fetched).recipients != nil else { return .recipientsRefused(.notEncrypted) }
        _ = try cipher(readingAt: fetched, in: mirror)
        return .recipientsRefused(.notReceivedYet)
    }

    private static func recipient(_ key: String) throws(SyncError) -> AgeRecipient {
        do {
            return try AgeRecipient(key)
        } catch {
            throw .recipientsRefused(.malformed(key))
        }
    }
}
