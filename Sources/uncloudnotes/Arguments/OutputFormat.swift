import ArgumentParser

/// `--json`, which every command that reports something takes: defined once.
struct OutputFormat: ParsableArguments {
    @Flag(help: "Print JSON instead of text (stable keys, for scripts).")
    var json = false
}
