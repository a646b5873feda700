import Foundation

/// A folder on a small XFS file system made for the test (an image file mounted through a loop
/// device), where files can be cloned (`FICLONE`), as on btrfs, XFS or bcachefs: the machines
/// the tests run on keep their files on ext4, which cannot. Unmounted and removed when released.
public final class CloneCapableFolder {
    public let url: URL
    private let image: URL

    /// Whether one can be made here: as root, with `mkfs.xfs` (Debian's xfsprogs) and loop devices.
    public static var isAvailable: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/sbin/mkfs.xfs")
            && FileManager.default.fileExists(atPath: "/dev/loop-control")
    }


    public init(megabytes: Int = 300) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("uncloudnotes-xfs-\(UUID().uuidString)")
        image = URL(fileURLWithPath: base.path + ".img")
        url = base
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: image.path, contents: nil) else {
            throw SpawnedProcess.SpawnError(description: "cannot create \(image.path)")
        }
        let handle = try FileHandle(forWritingTo: image)
        try handle.truncate(atOffset: UInt64(megabytes) << 20)
        try handle.close()
        try Self.run(["/sbin/mkfs.xfs", "-q", "-f", image.path])
        try Self.run(["mount", "-o", "loop", image.path, url.path])
    }

    deinit {
        _ = try? SpawnedProcess.run(["umount", url.path])
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.removeItem(at: image)
    }

    private static func run(_ argv: [String]) throws {
        let status = try SpawnedProcess.run(argv)
        guard status.code == 0, !status.endedBySignal else {
            throw SpawnedProcess.SpawnError(description: "\(argv.joined(separator: " ")) failed with status \(status.code)")
        }
    }
}
