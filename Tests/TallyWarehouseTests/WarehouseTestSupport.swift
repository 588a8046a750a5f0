import Foundation
import GRDB
import TallyCore
@testable import TallyIngest
@testable import TallyWarehouse

/// A warehouse path in a fresh temporary folder, under this test process's
/// own folder (``warehousesFolder``), which is deleted when the process exits.
func temporaryWarehousePath() -> String {
    _ = deleteWarehousesAtExit
    let dir = warehousesFolder.appendingPathComponent(UUID().uuidString)
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent("tally.sqlite").path
}

/// The folder of every warehouse this test process makes: a run of the
/// suite makes hundreds (a few GB), which must not outlive it.
let warehousesFolder = FileManager.default.temporaryDirectory
    .appendingPathComponent("tally-wh-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")

private let deleteWarehousesAtExit: Void = {
    atexit { try? FileManager.default.removeItem(at: warehousesFolder) }
}()

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

/// `INSERT INTO input_file` of two loads of `dataset/name`, from the data
/// folders `/d/a` (id 1, loaded first) and `/d/b` (id 2): for legacy warehouses.
func twoLoads(of name: String, dataset: String, table: String) -> String {
    """
    INSERT INTO input_file (id, path, display_path, dataset, table_name, bytes, sha256, load_seq) VALUES
        (1, '/d/a/\(dataset)/\(name)', 'a/\(dataset)/\(name)', '\(dataset)', '\(table)', 1, 'a', 1),
        (2, '/d/b/\(dataset)/\(name)', 'b/\(dataset)/\(name)', '\(dataset)', '\(table)', 1, 'b', 2);
    """
}

/// The rejects of the expenses' rows that belong to no statement (failed
/// winning versions, rows of unknown couples), as the statements family
/// decides them over the warehouse's couple keys.
func unattachedRejects(_ reader: WarehouseReader) throws -> [Reject] {
    var rejects: [Reject] = []
    try reader.forEachCoupleKey { rejects += StatementsFamily.partition($0).rejects }
    return rejects
}

/// The rejects of counted check-ins of unknown challenges, as the
/// leaderboards family decides them over the warehouse's challenge keys.
func unattachedCheckinRejects(_ reader: WarehouseReader) throws -> [Reject] {
    var rejects: [Reject] = []
    try reader.forEachChallengeKey { rejects += LeaderboardsFamily.partition($0).rejects }
    return rejects
}
