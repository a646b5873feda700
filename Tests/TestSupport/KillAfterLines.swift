import Foundation

/// Kills a program run by a test (SIGKILL, as a crash would) right after the Nth line it writes
/// to standard output, flushed first: an exact moment to interrupt, injected from outside, so the
/// shipped program carries no hook for it. A small shared library, compiled once per test run
/// with the toolchain's C compiler and preloaded into the child (`LD_PRELOAD`), wraps the C
/// library's `fwrite`, through which the program's checked writers print.
public enum KillAfterLines {
    /// The environment that kills the child after its `lines`th line on standard output.
    public static func environment(after lines: Int) throws -> [String: String] {
        ["LD_PRELOAD": try library.get().path, "KILL_AFTER_LINES": String(lines)]
    }

    private static let library: Result<URL, any Error> = Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kill-after-lines-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = folder.appendingPathComponent("kill_after_lines.c")
        let library = folder.appendingPathComponent("libkill_after_lines.so")
        try Data(Self.source.utf8).write(to: source)
        let compiler = ["clang", "cc"].first { name in
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
                FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
            }
        } ?? "cc"
        let errors = folder.appendingPathComponent("errors")
        let status = try SpawnedProcess.run([compiler, "-shared", "-fPIC", "-O2", "-o", library.path, source.path, "-ldl"],
                                            standardError: errors.path)
        guard status.code == 0, !status.endedBySignal else {
            throw SpawnedProcess.SpawnError(description: "\(compiler) could not build the kill hook: "
                + ((try? String(contentsOf: errors, encoding: .utf8)) ?? ""))
        }
        return library
    }

    /// Counts the line breaks written to `stdout` through `fwrite`; at the Nth, flushes and
    /// SIGKILLs the process. Without `KILL_AFTER_LINES` (or with 0) it only writes.
    private static let source = #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <signal.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <unistd.h>

        static long remaining = -1;

        size_t fwrite(const void *bytes, size_t size, size_t count, FILE *stream) {
            static size_t (*real)(const void *, size_t, size_t, FILE *);
            if (!real) real = (size_t (*)(const void *, size_t, size_t, FILE *))dlsym(RTLD_NEXT, "fwrite");
            size_t written = real(bytes, size, count, stream);
            if (stream != stdout) return written;
            if (remaining < 0) {
                const char *limit = getenv("KILL_AFTER_LINES");
                remaining = limit ? atol(limit) : 0;
            }
            const char *text = bytes;
            for (size_t index = 0; remaining > 0 && index < written * size; index++) {
                if (text[index] == '\n' && --remaining == 0) {
                    fflush(stdout);
                    kill(getpid(), SIGKILL);
                }
            }
            return written;
        }
        """#
}
