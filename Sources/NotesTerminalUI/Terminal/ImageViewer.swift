import Foundation
import UnCloudNotesKit

/// Opens an image in the system's viewer (`xdg-open`), for `o` in a note: the image is written to
/// a private file (0600, in a 0700 folder of the temporary directory, replaced on the next open of
/// the same name) and the viewer started in a session of its own with no terminal, so it can
/// neither read the app's keys nor draw over its screen. The app does not wait for it.
public enum ImageViewer {
    /// What happened, as the status line says it.
    public static func open(_ data: Data, named name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard let opener = executable("xdg-open", path: environment["PATH"] ?? "/usr/bin:/bin") else {
            return "cannot open the image: xdg-open is not installed (the xdg-utils package); uncloudnotes notes image saves it to a file"
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uncloudnotes-\(getuid())-images")
        let file = folder.appendingPathComponent(name)
        do {
            try PrivateFiles.makeFolder(folder)
            try PrivateFiles.write(data, to: file)
        } catch {
            return "cannot open the image: \(error)"
        }
        switch start([opener, file.path]) {
        case 0: return "opening \(name) with xdg-open"
        case let code: return "cannot start xdg-open (\(String(cString: strerror(code))))"
        }
    }

    /// The first executable file called `name` in `path`'s folders.
    static func executable(_ name: String, path: String) -> String? {
        path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    /// glibc's `POSIX_SPAWN_SETSID` (2.26 on), a GNU extension Swift's Glibc module leaves out.
    private static let newSession: Int16 = 0x80

    /// Starts the program detached (new session, standard streams on /dev/null) and reaps it in
    /// the background; 0, or the error number of a failed start.
    private static func start(_ arguments: [String]) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, newSession)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, cArguments, environ)
        guard spawned == 0 else { return spawned }
        let child = pid
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0, errno == EINTR {}
        }
        return 0
    }
}
