// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// Finds an executable product of the package under test, for tests that start helper processes.
///
/// SwiftPM builds every product into one products folder (`.build/<triple>/debug`, also
/// reachable as `.build/debug`), the folder that holds the test bundle; a test target that
/// depends on the executable target gets it built first. The executable is looked for, in order:
/// at the path in the environment variable `override`, when set; next to any loaded `.xctest`
/// bundle; next to the main bundle and the running executable (and up to three folders above
/// them); and in `.build/debug` and `.build/release` of the package holding `file`.
public enum PackageExecutable {
    /// The executable named `name`.
    /// - Throws: ``NotFound`` listing where it looked.
    public static func url(named name: String, override: String? = nil, file: String = #filePath) throws -> URL {
        if let override, let explicit = ProcessInfo.processInfo.environment[override] {
            return URL(fileURLWithPath: explicit)
        }
        var folders = Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }.map { $0.deletingLastPathComponent() }
        var starts = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        if let executable = Bundle.main.executableURL { starts.append(executable.deletingLastPathComponent()) }
        for start in starts {
            var folder = start.standardizedFileURL
            for _ in 0...3 {
                folders.append(folder)
                folder = folder.deletingLastPathComponent()
            }
        }
        var directory = URL(fileURLWithPath: file).deletingLastPathComponent()
        while directory.path != "/" {
            let build = directory.appendingPathComponent(".build")
            if FileManager.default.fileExists(atPath: build.path) {
                folders += [build.appendingPathComponent("debug"), build.appendingPathComponent("release")]
                break
            }
            directory = directory.deletingLastPathComponent()
        }
        for folder in folders {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw NotFound(name: name, searched: folders.map(\.path))
    }

    /// The executable was not built, or not where SwiftPM puts it.
    public struct NotFound: Error, CustomStringConvertible {
        /// The executable's name.
        public let name: String
        /// The folders searched.
        public let searched: [String]
        /// Names the executable and where it was looked for.
        public var description: String { "\(name) not found (build the package first); searched: \(searched)" }
    }
}
