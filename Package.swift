// swift-tools-version:6.0
import PackageDescription

// Layers, from the bottom up:
//   ManagedStore          the engine: models, version hashes, store, context, migration, stack.
//                         Knows nothing about notes.
//   UnCloudNotesResources the app's model files (top-level Resources/), shipped with the app.
//   UnCloudNotesKit       the notes app: its models, entities and migration stack. No terminal.
//   AgeEncryption         the age v1 file format (for encrypted remotes), on swift-crypto.
//   Processes             the one way the program starts other programs, on swift-subprocess.
//                         Knows nothing of notes; the engine does not start programs.
//   NotesSync             the store mirrored into a git repository of plain files (sync).
//   NotesTerminalUI       screens drawn into cell buffers; ncurses only copies them out.
//   uncloudnotes          the thin executable: argument parsing and wiring only.
let package = Package(
    name: "UnCloudNotes",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "uncloudnotes", targets: ["uncloudnotes"]),
        .executable(name: "uncloudnotes-bench", targets: ["uncloudnotes-bench"]),
        .library(name: "ManagedStore", targets: ["ManagedStore"]),
        .library(name: "UnCloudNotesKit", targets: ["UnCloudNotesKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        // swift-subprocess's own dependency, named for its FilePath and FileDescriptor.
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // Only for `make docs` (the ManagedStore DocC catalog); it adds no code to any product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // zlib inflates the compiled model Core Data caches in a store (Z_MODELCACHE).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "ManagedStore",
            dependencies: [
                "CZlib",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "UnCloudNotesResources",
            path: "Resources",
            sources: ["ResourceBundle.swift"],
            resources: [
                .copy("UnCloudNotesDataModel.xcdatamodeld"),
                .copy("UnCloudNotesMappingModel_v2_to_v3.xcmappingmodel"),
                .copy("UnCloudNotesMappingModel_v3_to_v4.xcmappingmodel"),
                .copy("UnCloudNotesMappingModel_v4_to_v5.xcmappingmodel"),
                .copy("SampleImages"),
                .copy("SampleStores"),
            ]
        ),
        // gdk-pixbuf decodes the images attached to notes (PNG, JPEG, …).
        .systemLibrary(
            name: "CGdkPixbuf",
            pkgConfig: "gdk-pixbuf-2.0",
            providers: [.apt(["libgdk-pixbuf-2.0-dev"])]
        ),
        .target(
            name: "UnCloudNotesKit",
            dependencies: ["ManagedStore", "UnCloudNotesResources", "CGdkPixbuf"]
        ),
        // The age v1 file format (c2sp.org/age) for encrypted remotes: framing only, every
        // primitive from swift-crypto. Knows nothing of notes.
        .target(name: "AgeEncryption", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        // The one process runner (issue #34): synchronous runs on swift-subprocess, with the
        // options its callers need (foreground editor, detached viewer, streamed input, captures).
        .target(name: "Processes", dependencies: [
            .product(name: "Subprocess", package: "swift-subprocess"),
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // Sync through git (issue #25): the store mirrored as plain files in a git repository,
        // driven by persistent history; git runs as a subprocess, front matter through Yams.
        .target(
            name: "NotesSync",
            dependencies: ["UnCloudNotesKit", "ManagedStore", "AgeEncryption", "Processes",
                           .product(name: "Yams", package: "Yams"),
                           .product(name: "Crypto", package: "swift-crypto")]
        ),
        // C shim: what Swift cannot call directly (wcwidth, ncurses' macros and globals).
        .target(name: "CTerminal", linkerSettings: [.linkedLibrary("ncursesw")]),
        // libchafa turns images into terminal cells for previews.
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev"])]),
        .target(name: "NotesTerminalUI", dependencies: ["UnCloudNotesKit", "NotesSync", "CTerminal", "CChafa", "ManagedStore", "Processes"]),
        .executableTarget(
            name: "uncloudnotes",
            dependencies: [
                "ManagedStore",
                "UnCloudNotesKit",
                "UnCloudNotesResources",
                "NotesTerminalUI",
                "NotesSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                // The settings file, config.toml.
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        // Test helpers: temporary folders, the shared fixtures, running the built executable.
        // glibc's posix_spawn_file_actions_addclosefrom_np for the tests' children (not in Swift's Glibc).
        .target(name: "CTestSpawn", path: "Tests/CTestSpawn"),
        .target(name: "TestSupport", dependencies: [
            "ManagedStore", "CGdkPixbuf", "CTestSpawn", .product(name: "Logging", package: "swift-log"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ], path: "Tests/TestSupport"),
        // The reader fuzz tests' child process (reads many model files, one line each): test-only.
        .executableTarget(name: "model-reader-host", dependencies: ["ManagedStore"], path: "Tests/ModelReaderHost"),
        // The benchmark program (make bench): migrations against hand-written SQL, launch, search.
        .executableTarget(
            name: "uncloudnotes-bench",
            dependencies: [
                "ManagedStore", "UnCloudNotesKit", "NotesTerminalUI", "CGdkPixbuf", "Processes",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ManagedStoreTests", dependencies: [
            "ManagedStore", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "ProcessesTests", dependencies: ["Processes"]),
        .testTarget(name: "AgeEncryptionTests", dependencies: ["AgeEncryption", "TestSupport"]),
        .testTarget(name: "UnCloudNotesKitTests", dependencies: [
            "UnCloudNotesKit", "ManagedStore", "TestSupport", "CGdkPixbuf", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // Depends on the executable for the kill storm, which SIGKILLs `uncloudnotes sync`.
        .testTarget(name: "NotesSyncTests", dependencies: [
            "NotesSync", "uncloudnotes", "UnCloudNotesKit", "ManagedStore", "TestSupport",
        ]),
        .testTarget(name: "NotesTerminalUITests", dependencies: [
            "NotesTerminalUI", "UnCloudNotesKit", "ManagedStore", "NotesSync", "TestSupport",
        ], exclude: ["Snapshots"]),
        // Depends on the executable so that `swift test` builds the binary these tests run.
        .testTarget(name: "CommandLineTests", dependencies: ["uncloudnotes", "uncloudnotes-bench", "model-reader-host", "TestSupport", "UnCloudNotesKit", "ManagedStore"]),
    ]
)
