import Foundation
import GRDB
@testable import TallyIngest
@testable import TallyWarehouse

/// A warehouse path in a fresh temporary folder.
func temporaryWarehousePath() -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tally-wh-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent("tally.sqlite").path
}

/// An input file of `table` named `name` (under a data folder that need not exist).
func file(_ table: TableID, _ name: String) -> InputFile {
    InputFile(url: URL(fileURLWithPath: "/data/\(name)"), relativePath: name, kind: .table(table))
}

/// A warehouse as an earlier version left it: migrated up to `version`,
/// then `sql` run (rows in that version's tables). Returns its path.
func legacyWarehouse(upTo version: String, _ sql: String, arguments: StatementArguments = []) throws -> String {
    let path = temporaryWarehousePath()
    let queue = try DatabaseQueue(path: path)
    try WarehouseSchema.migrator.migrate(queue, upTo: version)
    try queue.write { db in try db.execute(sql: sql, arguments: arguments) }
    return path
}
