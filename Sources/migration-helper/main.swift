// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// A helper program for AuthMigration's kill test: moves a file store into a SQLite database and
// prints its progress, so a test can kill it midway (SIGKILL) and run it again.
//
//   migration-helper move <file-store-directory> <sqlite-path> [<progress-every>]
//
// Output (each line written unbuffered): `progress <done>/<total>` every <progress-every> records
// (default 100), then `done total=… copied=… already=… removed=… skipped=… conflicts=…`.
import AuthCore
import AuthFileStore
import AuthMigration
import AuthSQLiteStore
import Foundation

func emit(_ line: String, to handle: FileHandle = .standardOutput) {
    handle.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count >= 4, arguments[1] == "move" else {
    emit("usage: migration-helper move <file-store-directory> <sqlite-path> [<progress-every>]", to: .standardError)
    exit(2)
}
let every = arguments.count > 4 ? max(1, Int(arguments[4]) ?? 100) : 100

do {
    // Damaged records stay exactly where they are (reported and skipped), never moved aside.
    let source = try FileCredentialStore(
        directory: URL(fileURLWithPath: arguments[2]),
        options: FileCredentialStore.Options(quarantinesCorruptedRecords: false))
    // WAL with synchronous=NORMAL: a commit survives a killed process (the case tested here);
    // only a power loss could undo the last ones.
    let target = try await SQLiteCredentialStore.open(at: arguments[3], options: SQLiteStoreOptions(durability: .normal))
    let migration = StoreMigration(from: source, to: target, mode: .move)
    let report = try await migration.run { progress in
        if progress.done % every == 0 || progress.done == progress.total {
            emit("progress \(progress.done)/\(progress.total)")
        }
    }
    for skipped in report.skipped { emit("skipped \(skipped)") }
    emit("done total=\(report.total) copied=\(report.copied.count) already=\(report.alreadyPresent.count) "
        + "removed=\(report.removedFromSource.count) skipped=\(report.skipped.count) conflicts=\(report.conflicts.count)")
    try await target.close()
} catch {
    emit("error \(error)", to: .standardError)
    exit(1)
}
