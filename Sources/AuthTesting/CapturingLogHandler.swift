// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Logging
import Synchronization

/// A log handler that keeps every line, for tests that check what was (and was not) logged.
///
/// ```swift
/// let capture = CapturingLogHandler.Capture()
/// let logger = Logger(label: "test") { _ in CapturingLogHandler(capture: capture, logLevel: .trace) }
/// logger.info("signed in")   // the code under test logs
/// #expect(!capture.text.contains(password))
/// ```
public struct CapturingLogHandler: LogHandler {
    /// One captured line.
    public struct Line: Sendable, CustomStringConvertible {
        /// The level.
        public let level: Logger.Level
        /// The message.
        public let message: String
        /// The metadata, handler and call-site merged, rendered as text.
        public let metadata: String
        /// `level message metadata`.
        public var description: String { "\(level) \(message) \(metadata)" }
    }

    /// Where the lines go; share one between loggers.
    public final class Capture: Sendable {
        private let lines = Mutex<[Line]>([])
        /// Creates an empty capture.
        public init() {}
        /// Every line so far.
        public var all: [Line] { lines.withLock { $0 } }
        /// Every line so far, joined by newlines.
        public var text: String { all.map(\.description).joined(separator: "\n") }
        func append(_ line: Line) { lines.withLock { $0.append(line) } }
    }

    /// The capture lines are added to.
    public let capture: Capture
    /// The handler's level.
    public var logLevel: Logger.Level
    /// The handler's metadata.
    public var metadata: Logger.Metadata = [:]

    /// Creates a handler writing into `capture`.
    public init(capture: Capture, logLevel: Logger.Level = .trace) {
        self.capture = capture
        self.logLevel = logLevel
    }

    /// Handler metadata by key.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Captures one line.
    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let rendered = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        capture.append(Line(level: event.level, message: event.message.description, metadata: rendered))
    }
}
