import Foundation
import GRDB
import Testing
@testable import TallyWarehouse

/// The migrations, listed once in order (`Migrations`), and the upgrade of a
/// warehouse whose first migration was applied under its former name.
@Suite("Warehouse migrations")
struct MigrationsTests {
    @Test("the migrations are named v0, v1, v2, … in the order they run, none skipped, each name once")
    func namesInOrder() {
        let names = Migrations.names
        #expect(Set(names).count == names.count)
        // v0, v1, v2, …: numbered in order, none skipped, each with a name after its number.
        for (i, name) in names.enumerated() { #expect(name.hasPrefix("v\(i): "), "\(names)") }
    }

    private func appliedNames(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
    }

    private func schema(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT type || ' ' || name || ': ' || sql FROM sqlite_master WHERE sql NOT NULL ORDER BY name")
    }

    /// A warehouse migrated up to `version`, its first migration recorded
    /// under the name released versions used, with one loaded file and one reject.
    private func warehouseWithFormerName(upTo version: String) throws -> String {
        let path = try legacyWarehouse(upTo: version, """
            INSERT INTO input_file (id, path, display_path, dataset, table_name, bytes, sha256, load_seq)
            VALUES (1, '/d/expenses/expenses.csv', 'expenses/expenses.csv', 'expenses', 'expenses', 1, 'a', 1);
            INSERT INTO ingest_reject (file_id, line, record_id, reason) VALUES (1, 7, 'e1', 'bad amount');
            UPDATE grdb_migrations SET identifier = 'v1: input files' WHERE identifier = 'v0: input files';
            """)
        let names = try DatabaseQueue(path: path).read(appliedNames)
        #expect(names.contains("v1: input files") && !names.contains("v0: input files"))
        return path
    }

    @Test("a warehouse that applied every migration under the former name opens without running any again")
    func renamedWithoutRerunning() throws {
        let path = try warehouseWithFormerName(upTo: Migrations.names.last!)
        let before = try DatabaseQueue(path: path).read(schema)
        for _ in 0..<2 {  // the second opening finds nothing to do
            let warehouse = try Warehouse(path: path)
            let (applied, after, files, rejects) = try warehouse.read { reader in
                (try appliedNames(reader.db), try schema(reader.db),
                 try Int.fetchOne(reader.db, sql: "SELECT count(*) FROM input_file"),
                 try Int.fetchOne(reader.db, sql: "SELECT count(*) FROM ingest_reject"))
            }
            #expect(applied == Migrations.names.sorted())
            #expect(after == before)
            #expect(files == 1 && rejects == 1)
            #expect(try warehouse.integrityCheck() == "ok")
        }
    }

    @Test("a warehouse of an earlier version under the former name gets the later migrations and keeps its rows")
    func renamedThenMigrated() throws {
        let path = try warehouseWithFormerName(upTo: "v3: swipes and subscriptions")
        let warehouse = try Warehouse(path: path)
        let fresh = try Warehouse(path: temporaryWarehousePath())
        let freshSchema = try fresh.read { try schema($0.db) }
        let (applied, upgraded, reason) = try warehouse.read { reader in
            (try appliedNames(reader.db), try schema(reader.db),
             try String.fetchOne(reader.db, sql: "SELECT reason FROM ingest_reject WHERE file_id = 1"))
        }
        #expect(applied == Migrations.names.sorted())
        #expect(upgraded == freshSchema)
        #expect(reason == "bad amount")
        #expect(try warehouse.integrityCheck() == "ok")
    }

    /// A warehouse a newer tally migrated further is refused, with what to
    /// do: this version would not keep what the newer one keeps up to date.
    @Test func aNewerTallysWarehouseIsRefused() throws {
        let path = temporaryWarehousePath()
        _ = try Warehouse(path: path)
        let db = try DatabaseQueue(path: path)
        try db.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')") }
        try db.close()
        #expect {
            _ = try Warehouse(path: path)
        } throws: { error in
            "\(error)".contains("was written by a newer tally") && "\(error)".contains(path)
        }
    }
}
