import GRDB
import Testing
@testable import TallyWarehouse

/// The key hashes kept beside an append-only log (`KeyHashRuns`): after
/// each append, the groups they give hold every row of every repeated key
/// an appended row joins, as a scan of the whole log finds them.
@Suite("Key hash runs: repeats found from the hashes kept")
struct KeyHashRunsTests {
    let runs = KeyHashRuns(log: "t", key: "id")

    func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id TEXT)")
            try KeyHashRuns.createTables(db)
        }
        return queue
    }

    /// The rows of every key that has more than one row and a row after
    /// `since` (every repeated key without), from the table itself.
    func repeatedRows(_ db: Database, since: Int64?) throws -> Set<Int64> {
        Set(try Int64.fetchAll(db, sql: """
            SELECT rowid FROM t WHERE coalesce(id, '') IN (
                SELECT coalesce(id, '') FROM t GROUP BY coalesce(id, '') HAVING count(*) > 1 AND max(rowid) > ?)
            """, arguments: [since ?? 0]))
    }

    /// The groups' rows whose key really repeats (a hash collision between
    /// two keys would add rows the derivations leave out).
    func found(_ groups: [[Int64]], _ db: Database, since: Int64?) throws -> Set<Int64> {
        #expect(groups.allSatisfy { $0 == $0.sorted() && $0.count > 1 && Set($0).count == $0.count })
        if let since { #expect(groups.allSatisfy { ($0.last ?? 0) > since }, "a group without an appended row") }
        return Set(groups.joined()).intersection(try repeatedRows(db, since: since))
    }

    func append(_ ids: [String?], to db: Database) throws {
        for id in ids { try db.execute(sql: "INSERT INTO t (id) VALUES (?)", arguments: [id]) }
    }

    func lastRow(_ db: Database) throws -> Int64 { try Int64.fetchOne(db, sql: "SELECT coalesce(max(rowid), 0) FROM t") ?? 0 }

    func runCount(_ db: Database) throws -> Int { try Int.fetchOne(db, sql: "SELECT count(*) FROM key_hash_run") ?? 0 }

    @Test("appended in steps, repeats within a step, across steps and of NULL keys are found from the runs, one run per step")
    func appendsFindEveryRepeat() throws {
        var generator = SystemRandomNumberGenerator()
        let queue = try database()
        try queue.write { db in
            var since: Int64? = nil
            for step in 0..<8 {
                // Keys from a small pool repeat within and across steps; some are NULL.
                let ids: [String?] = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                    Int.random(in: 0..<50, using: &generator) == 0 ? nil : "k\(Int.random(in: 0..<400, using: &generator))"
                }
                try append(ids, to: db)
                let runsBefore = try runCount(db)
                let groups = try runs.collisions(db, since: since)
                #expect(try found(groups, db, since: since) == repeatedRows(db, since: since), "step \(step)")
                if since != nil {
                    #expect(try runCount(db) == runsBefore + (ids.isEmpty ? 0 : 1), "one run per step that appended rows")
                }
                since = try lastRow(db)
            }
        }
    }

    @Test("only the appended rows are hashed once the runs cover the log: the earlier rows' hashes are the runs'")
    func earlierRowsAreNotReadAgain() throws {
        let queue = try database()
        try queue.write { db in
            try append(["a", "b", "c"], to: db)
            _ = try runs.collisions(db, since: nil)
            let since = try lastRow(db)
            // Were the earlier rows read again, the changed key would be hashed as "z"; the runs still say "a".
            try db.execute(sql: "UPDATE t SET id = 'z' WHERE id = 'a'")
            try append(["a"], to: db)
            let groups = try runs.collisions(db, since: since)
            #expect(groups == [[1, 4]])
        }
    }

    @Test("without runs that cover the log (forgotten, or never written), a scan finds the groups and writes the runs anew")
    func forgottenRunsAreWrittenAgain() throws {
        let queue = try database()
        try queue.write { db in
            try append(["a", "b", "a"], to: db)
            #expect(try runs.collisions(db, since: nil).map(Set.init) == [[1, 3]])
            let since = try lastRow(db)
            try KeyHashRuns.forgetAll(db)
            try append(["b", "c"], to: db)
            // The groups an appended row joins, found by a scan: b's, not a's.
            #expect(try runs.collisions(db, since: since) == [[2, 4]])
            #expect(try runCount(db) == 1)
            try append(["c", "a"], to: db)
            #expect(Set(try runs.collisions(db, since: since + 2).map(Set.init)) == [[5, 6], [1, 3, 7]])
        }
    }

    @Test("rows removed after they were hashed only add candidates; a rowid SQLite hands out again is hashed as its new row")
    func removedRowsAddOnlyCandidates() throws {
        let queue = try database()
        try queue.write { db in
            try append(["a", "b", "c"], to: db)
            _ = try runs.collisions(db, since: nil)
            try append(["x", "y"], to: db)
            _ = try runs.collisions(db, since: 3)
            // The last two rows rejected after the derivation listed them: their rowids come back.
            try db.execute(sql: "DELETE FROM t WHERE rowid > 3")
            try append(["b", "q"], to: db)
            let groups = try runs.collisions(db, since: 3)
            #expect(try found(groups, db, since: 3) == [2, 4])
            #expect(groups.contains([2, 4]))
            // q's row rejected in turn, and q delivered again: the same rowid, the same key, a run each.
            try db.execute(sql: "DELETE FROM t WHERE rowid = 5")
            try append(["q"], to: db)
            let again = try runs.collisions(db, since: 4)
            #expect(try found(again, db, since: 4).isEmpty)
            #expect(!again.contains { $0.contains(5) })
        }
    }

    @Test("every group of two keys of one log, a NULL key left out, from the runs and the appended rows alone")
    func everyGroupOfTwoKeys() throws {
        var generator = SystemRandomNumberGenerator()
        let queue = try DatabaseQueue()
        let keys = [KeyHashRuns(log: "c", key: "id"), KeyHashRuns(log: "c", key: "w", skipsNull: true)]
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE c (id TEXT, w TEXT)")
            try KeyHashRuns.createTables(db)
            /// Every row of a non-NULL value that repeats, per column.
            func repeated(_ column: String) throws -> Set<Int64> {
                Set(try Int64.fetchAll(db, sql: """
                    SELECT rowid FROM c WHERE \(column) IN (SELECT \(column) FROM c GROUP BY \(column) HAVING count(*) > 1)
                    """))
            }
            var since: Int64? = nil
            for step in 0..<6 {
                for _ in 0..<Int.random(in: 0...200, using: &generator) {
                    let workout: String? = Bool.random(using: &generator) ? nil : "w\(Int.random(in: 0..<150, using: &generator))"
                    try db.execute(sql: "INSERT INTO c (id, w) VALUES (?, ?)",
                                   arguments: ["k\(Int.random(in: 0..<300, using: &generator))", workout])
                }
                let groups = try KeyHashRuns.allCollisions(keys, db, since: since)
                for (k, column) in ["id", "w"].enumerated() {
                    #expect(groups[k].allSatisfy { $0 == $0.sorted() && $0.count > 1 && Set($0).count == $0.count })
                    let expected = try repeated(column)
                    #expect(Set(groups[k].joined()).intersection(expected) == expected, "step \(step), \(column)")
                }
                since = try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM c")
            }
            // The runs cover the log: its earlier rows are not read again (a changed id keeps its kept hash).
            try db.execute(sql: "UPDATE c SET id = 'changed' WHERE rowid = 1")
            try db.execute(sql: "INSERT INTO c (id, w) VALUES ((SELECT id FROM c WHERE rowid = 2), NULL)")
            let last = try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM c") ?? 0
            let groups = try KeyHashRuns.allCollisions(keys, db, since: last - 1)
            #expect(groups[0].contains { $0.contains(2) && $0.contains(last) })
        }
    }

    @Test("a log hashed in passes (one residue of the hash each) gives every group, one run per pass", arguments: [1, 2, 7, 1000])
    func passesGiveEveryGroup(perPass: Int) throws {
        let queue = try database()
        try queue.write { db in
            try append((0..<60).map { "k\($0 % 25)" }, to: db)
            let groups = try runs.collisions(db, since: nil, perPass: perPass)
            #expect(try found(groups, db, since: nil) == repeatedRows(db, since: nil))
            #expect(try runCount(db) <= max(1, (60 + perPass - 1) / perPass))
            try append(["k3", "new"], to: db)
            let appended = try runs.collisions(db, since: 60)
            #expect(try found(appended, db, since: 60) == repeatedRows(db, since: 60))
        }
    }

    @Test("earlier rows asked for (`also`) bring their groups, with and without runs that cover the log")
    func earlierRowsAskedForBringTheirGroups() throws {
        let queue = try database()
        try queue.write { db in
            try append(["a", "b", "a", "c", "b", "d"], to: db)
            _ = try runs.collisions(db, since: nil)
            let since = try lastRow(db)
            try append(["c", "e"], to: db)
            // Row 2 ("b", repeated by row 5) is asked for; "c" is repeated by an appended row; "a" is not asked for.
            let groups = try runs.collisions(db, since: since, also: [2])
            #expect(Set(groups.map(Set.init)).isSuperset(of: [[2, 5], [4, 7]]))
            #expect(!groups.contains { $0.contains(1) }, "a group no appended row joins and no row asked for")
            // Forgotten runs: the scan keeps the same groups.
            try KeyHashRuns.forgetAll(db)
            let scanned = try runs.collisions(db, since: since, also: [2])
            #expect(Set(scanned.map(Set.init)) == Set(groups.map(Set.init)))
        }
    }
}
