import Foundation
import Logging

/// A swift-log handler that keeps messages in memory, for tests of what is logged.
public final class LogCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []

    public init() {}

    public var messages: [String] {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }

    public var logger: Logger {
        Logger(label: "test") { _ in Handler(collector: self) }
    }

    fileprivate func append(_ message: String) {
        lock.lock()
        collected.append(message)
        lock.unlock()
    }

    private struct Handler: LogHandler {
        let collector: LogCollector
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            collector.append(event.message.description)
        }
    }
}
