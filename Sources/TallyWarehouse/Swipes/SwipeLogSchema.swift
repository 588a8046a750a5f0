import GRDB
import GRDBSQLite
import TallyCore

/// The swipes of `swipes/` (FypMatch), stored compactly, and their derived
/// tables: the superseded repeats of an id and the matches.
///
/// A swipe row names its users by number (`swipe_person`), repeated ids
/// are found with a Bloom filter while loading (``SwipeIdFilter``) and
/// settled exactly over the few candidates by ``TallyCore/SwipeVersionRule``,
/// and the match pass sorts integers: no copy of the winners, no sort of
/// every id, no sort by pair over text ids, which together take minutes at
/// medium scale.
enum SwipeLogSchema {
    /// v5: the compact swipe log and its derived tables, replacing v3's
    /// swipe tables (whose files load again).
    static func createLog(_ db: Database) throws {
        // The files whose rows lived in the old tables load again.
        try db.execute(sql: """
            DELETE FROM input_file WHERE table_name = 'swipes';
            DROP TABLE swipe_match;
            DROP TABLE swipe;
            DROP TABLE swipe_row;
            CREATE TABLE swipe_person (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            -- Every swipe row as read, append-only. No foreign key and no index
            -- on file_id: keeping them up to date is a large share of the load's
            -- CPU. The rows of an unloaded file are deleted by
            -- IngestSession (WarehouseSchema.logsWithoutForeignKey), a scan.
            CREATE TABLE swipe_row (
                id TEXT NOT NULL,
                from_person INTEGER NOT NULL, to_person INTEGER NOT NULL,
                action TEXT NOT NULL, at INTEGER NOT NULL,
                file_id INTEGER NOT NULL, line INTEGER NOT NULL
            );
            -- Ids that may repeat (a superset: the Bloom filter's "maybe seen").
            CREATE TABLE swipe_id_candidate (id TEXT PRIMARY KEY) WITHOUT ROWID;
            -- Derived: rows of a repeated id that do not count (all but the
            -- first row of the latest-loaded file holding the id).
            CREATE TABLE swipe_superseded (row INTEGER PRIMARY KEY);
            -- Derived: every match (user_a < user_b by person number) and the instant it formed.
            CREATE TABLE swipe_match (
                user_a INTEGER NOT NULL, user_b INTEGER NOT NULL, formed_at INTEGER NOT NULL,
                PRIMARY KEY (user_a, user_b)
            ) WITHOUT ROWID;
            CREATE INDEX swipe_match_formed ON swipe_match(formed_at);
            -- The accepted swipes as the contract names them, for queries by hand.
            CREATE VIEW swipe AS
            SELECT r.id, p.name AS from_user, q.name AS to_user, r.action, r.at, r.file_id, r.line
            FROM swipe_row r JOIN swipe_person p ON p.id = r.from_person JOIN swipe_person q ON q.id = r.to_person
            WHERE r.rowid NOT IN (SELECT row FROM swipe_superseded);
            """)
    }

    /// The input table (`InputFile.tableName`) of the swipes log.
    static let table = "swipes"

    /// The SQL condition on `swipe_row.action` that keeps the swipes
    /// ``TallyCore/MatchRule/matchActions`` names: a lookup of the rule's
    /// declaration, spelled as the shorter list (today `action NOT IN
    /// ('pass')`, which SQLite runs as one comparison per row).
    ///
    /// ```swift
    /// "SELECT count(*) FROM swipe_row WHERE \(SwipeLogSchema.matchActionFilter)"
    /// ```
    static let matchActionFilter = actionFilter(keeping: MatchRule.matchActions)

    /// The SQL condition on `action` true exactly for the actions of `kept`
    /// (actions are stored in their contract spelling, one of
    /// ``TallyCore/SwipeAction``'s): `action IN (…)` or `action NOT IN (…)`,
    /// whichever lists fewer actions.
    static func actionFilter(keeping kept: Set<SwipeAction>) -> String {
        func list(_ actions: [SwipeAction]) -> String {
            actions.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        }
        let keptInOrder = SwipeAction.allCases.filter(kept.contains)
        let left = SwipeAction.allCases.filter { !kept.contains($0) }
        if left.isEmpty { return "1" }
        if keptInOrder.isEmpty { return "0" }
        return left.count < keptInOrder.count ? "action NOT IN (\(list(left)))" : "action IN (\(list(keptInOrder)))"
    }

    /// The superseded repeats (counted per file) and the matches, derived
    /// pair by pair with ``TallyCore/MatchRule``. Only the swipes whose
    /// action the rule declares able to make or unmake a match
    /// (``TallyCore/MatchRule/matchActions``) are read for the matches
    /// (``matchActionFilter``).
    static let derivation = Derivation.leavingTail(.swipeMatches, inputs: [table]) { db in
        try deriveLeavingTail(db, budget: matchPassBudget)
    }

    /// The derivation (see ``derivation``), with `budget` bytes for the match
    /// pass's swipes, done here.
    static func derive(_ db: Database, budget: Int) throws {
        try deriveLeavingTail(db, budget: budget)?.finish(db)
    }

    /// The derivation, with `budget` bytes for the match pass's swipes.
    ///
    /// One scan of the log finds the rows that may hold a repeated id and,
    /// when the likes and reports fit `budget`, collects them for the match
    /// pass too, which then need not scan the log again: their sort and fold
    /// are left as a tail. Otherwise the pass reads the log partition by
    /// partition (``deriveMatches(_:budget:likesAndReports:)``).
    ///
    /// After an ingest that only appended rows (a ``DerivationMarks`` mark),
    /// only the pairs of the appended likes and reports, and of the rows
    /// whose superseded state moved, can match otherwise: the scan collects
    /// those pairs' likes and reports only (memory for the month's pairs,
    /// not the log's; scanned again in the rare case that a moved row's
    /// pair is not among the appended ones), the tail sorts and folds them,
    /// and changes only the matches that differ (``MatchFold/update(_:)``),
    /// not every match and its index.
    private static func deriveLeavingTail(_ db: Database, budget: Int) throws -> DerivationTail? {
        let since = try DerivationMarks.lastRow(db, .swipeMatches)
        // Until the matches are stored again, no later derivation may take them as up to date.
        try db.execute(sql: "DELETE FROM derivation_mark WHERE name = ?", arguments: [DerivedTable.swipeMatches.rawValue])
        let supersededBefore = since == nil ? [] : Set(try Int64.fetchAll(db, sql: "SELECT row FROM swipe_superseded"))
        // After an append-only ingest, the pairs of the appended likes and reports: the scan collects theirs alone.
        var touched = Set<UInt64>()
        if let since {
            let appended = try RawCursor(db, sql: "SELECT from_person, to_person FROM swipe_row WHERE rowid > ? AND \(matchActionFilter)",
                                         arguments: [since])
            while try appended.next() { touched.insert(PairRow.pair(appended.int64(0), appended.int64(1))) }
        }
        var scan = try scanLog(db, budget: budget, only: since == nil ? nil : touched)
        try storeSupersededRepeats(db)
        try db.execute(sql: """
            DROP TABLE temp.swipe_candidate_row;
            -- CROSS JOIN: from the superseded rows to the log, not a scan of the log per file.
            UPDATE input_file SET rows_superseded =
                (SELECT count(*) FROM swipe_superseded s CROSS JOIN swipe_row r ON r.rowid = s.row WHERE r.file_id = input_file.id)
            WHERE table_name = 'swipes';
            """)
        let superseded = Set(try Int64.fetchAll(db, sql: "SELECT row FROM swipe_superseded"))
        if since != nil, scan.pairs != nil {
            // The pairs of the likes and reports whose superseded state moved (a repeat of an earlier
            // file's id): when one was not collected, the log is scanned again for every touched pair's.
            let moved = try db.makeStatement(sql: """
                SELECT from_person, to_person FROM swipe_row WHERE rowid = ? AND \(matchActionFilter)
                """)
            var more = Set<UInt64>()
            for rowid in superseded.symmetricDifference(supersededBefore) {
                if let row = try Row.fetchOne(moved, arguments: [rowid]), case let pair = PairRow.pair(row[0], row[1]),
                   !touched.contains(pair) { more.insert(pair) }
            }
            if !more.isEmpty {
                touched.formUnion(more)
                scan = try scanLog(db, budget: budget, only: touched)
                try db.execute(sql: "DROP TABLE temp.swipe_candidate_row")
            }
        }
        guard var pairs = scan.pairs else {
            try db.execute(sql: "DROP INDEX IF EXISTS swipe_match_formed; DELETE FROM swipe_match")
            try deriveMatches(db, budget: budget, likesAndReports: scan.likesAndReports)
            try indexMatches(db)
            try DerivationMarks.record(db, .swipeMatches, log: "swipe_row")
            return nil
        }
        scan.pairs = nil  // the one reference: changed in place below, not copied
        // A superseded like or report does not count: the fold skips it.
        for (rowid, index) in scan.candidatePairs where superseded.contains(rowid) { pairs[index].superseded = true }
        guard since != nil else {
            try db.execute(sql: "DROP INDEX IF EXISTS swipe_match_formed; DELETE FROM swipe_match")
            let fold = MatchFold(consume pairs)
            return DerivationTail(compute: { fold.compute() }, store: { db in
                try fold.store(db)
                try indexMatches(db)
                try DerivationMarks.record(db, .swipeMatches, log: "swipe_row")
            })
        }
        let fold = MatchFold(consume pairs)
        let folded = touched
        return DerivationTail(compute: { fold.compute() }, store: { db in
            try fold.update(db, pairs: folded)
            try DerivationMarks.record(db, .swipeMatches, log: "swipe_row")
        })
    }

    /// Indexes the matches by the instant they formed, once they are all
    /// stored: the index is dropped before the matches are deleted and
    /// built after, one sort instead of an index entry put in place per
    /// match. A run stopped in between leaves the table pending, and the
    /// next rebuild builds it.
    private static func indexMatches(_ db: Database) throws {
        try db.execute(sql: "CREATE INDEX IF NOT EXISTS swipe_match_formed ON swipe_match(formed_at)")
    }

    /// Fills `swipe_superseded` with the rows that ``TallyCore/SwipeVersionRule``
    /// supersedes: the candidate rows (`temp.swipe_candidate_row`) holding a
    /// candidate id are read by id, one id's rows at a time, and handed to
    /// the rule.
    private static func storeSupersededRepeats(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM swipe_superseded")
        var losers: [Int64] = []
        try KeyGroupCursor.forEachGroup(db, sql: """
            SELECT r.id, r.rowid, f.load_seq, r.line
            FROM swipe_row r JOIN input_file f ON f.id = r.file_id
            WHERE r.rowid IN (SELECT row FROM temp.swipe_candidate_row)
              AND r.id IN (SELECT id FROM swipe_id_candidate)
            ORDER BY r.id
            """, read: { c in SwipeVersionRule.Row(loadSeq: c.int64(2), line: c.int64(3), row: c.int64(1)) }
        ) { group in
            for row in WhichRowsCount.sort(group, by: SwipeVersionRule(), describe: { _, r in r }).superseded {
                losers.append(row.row)
            }
        }
        let insert = try BulkStatement(db, sql: "INSERT INTO swipe_superseded (row) VALUES (?)")
        for row in losers.sorted() {
            insert.bind(1, row)
            try insert.step()
        }
    }

    /// What one scan of the log found (``scanLog(_:budget:)``).
    private struct LogScan {
        /// The swipes in the log that can make or unmake a match (its likes and reports).
        var likesAndReports = 0
        /// Every one of those, when they fit the budget.
        var pairs: [PairRow]?
        /// The pairs (indexes in `pairs`) of rows that may hold a repeated id, by rowid.
        var candidatePairs: [(rowid: Int64, index: Int)] = []
    }

    /// Fills `temp.swipe_candidate_row` with the rows whose id hashes like
    /// a candidate's (a superset of the rows holding a candidate id; the
    /// caller compares the ids exactly), counts the likes and reports, and
    /// collects them as pairs while they fit `budget` bytes.
    ///
    /// Each id is hashed in place and looked up in memory (``SparseKeySet``):
    /// probing the candidates' text index once per row (`id IN (SELECT …)`,
    /// ~9 text comparisons each) costs many times that. Memory grows with the
    /// candidates (8 bytes each), not with the swipes, beside the pairs'
    /// budget. With `only`, it collects the likes and reports of those pairs
    /// alone (the pairs a month's rows touched, looked up the same way),
    /// however many the log holds.
    private static func scanLog(_ db: Database, budget: Int, only pairs: Set<UInt64>? = nil) throws -> LogScan {
        let only = pairs.map(SparseKeySet.init)
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS swipe_candidate_row (row INTEGER PRIMARY KEY)")
        var hashes = Set<UInt64>()
        let ids = try RawCursor(db, sql: "SELECT id FROM swipe_id_candidate")
        while try ids.next() { hashes.insert(ids.withText(0, ByteHash.of)) }
        let candidates = SparseKeySet(hashes)
        let insert = try BulkStatement(db, sql: "INSERT OR IGNORE INTO temp.swipe_candidate_row (row) VALUES (?)")

        let room = budget / MemoryLayout<PairRow>.stride
        var scan = LogScan()
        var pairs: [PairRow] = []
        // The log holds at most max(rowid) rows, about half of them likes or
        // reports (passes are the rest): collect only when they should fit.
        // A wrong guess costs time, never the result (collecting stops at
        // the budget; the partitioned pass follows). At large scale (50M
        // rows) collecting would fill the budget (5.6M pairs) only to drop it.
        let lastRow = try Int.fetchOne(db, sql: "SELECT max(rowid) FROM swipe_row") ?? 0
        var collecting = room > 0 && (only != nil || lastRow / 2 <= room)
        if collecting && only == nil { pairs.reserveCapacity(min(lastRow, room)) }  // reserved, not touched, until used
        let rows = try RawCursor(db, sql: "SELECT action, rowid, id, from_person, to_person, at FROM swipe_row")
        while try rows.next() {
            let action = rows.withText(0, SwipeAction.init(utf8:))
            let counted = action.map(MatchRule.changesMatches) ?? false
            if counted { scan.likesAndReports += 1 }
            var collected = false
            if counted && collecting {
                let row = PairRow(from: rows.int64(3), to: rows.int64(4), at: rows.int64(5), action: action!)
                if let only, !only.contains(row.pair) {
                    // Not a pair the month touched: not collected.
                } else if pairs.count < room {
                    pairs.append(row)
                    collected = true
                } else {
                    collecting = false
                    pairs = []
                    scan.candidatePairs = []
                }
            }
            guard !candidates.isEmpty, candidates.contains(rows.withText(2, ByteHash.of)) else { continue }
            let rowid = rows.int64(1)
            insert.bind(1, rowid)
            try insert.step()
            if collected { scan.candidatePairs.append((rowid, pairs.count - 1)) }
        }
        if collecting { scan.pairs = pairs }
        return scan
    }

    /// One swipe of the match pass: the pair (first user in the high half),
    /// the instant, whether it goes first → second, and whether
    /// ``TallyCore/SwipeVersionRule`` superseded it (it then does not count;
    /// the flag fits in the row's padding).
    private struct PairRow {
        var pair: UInt64
        var at: Int64
        var action: SwipeAction
        var forward: Bool
        var superseded = false

        init(from: Int64, to: Int64, at: Int64, action: SwipeAction) {
            self.pair = Self.pair(from, to)
            self.at = at
            self.action = action
            self.forward = from <= to
        }

        /// The pair of two person numbers, either way round: the smaller in the high half.
        static func pair(_ from: Int64, _ to: Int64) -> UInt64 {
            let (a, b) = from < to ? (UInt64(from), UInt64(to)) : (UInt64(to), UInt64(from))
            return a << 32 | b
        }
    }

    /// Memory for one partition of the match pass. Each partition is one
    /// scan of `swipe_row`, so a roomier budget means fewer scans: 128 MiB
    /// makes medium one partition and large five.
    static let matchPassBudget = 128 << 20

    /// The match pass, partition by partition of pairs (`(from + to) % n`,
    /// n sized so a partition's swipes fit ``matchPassBudget``): a
    /// partition's swipes are read, sorted by pair in memory and folded with
    /// the rule. Sorting fixed-size pairs in memory is several times faster
    /// than SQLite's sorter over the same rows, and memory stays bounded
    /// whatever the month's size.
    /// `likesAndReports` sizes the partitions: the log's rows whose action
    /// is one of ``TallyCore/MatchRule/matchActions`` (counted here when not given).
    static func deriveMatches(_ db: Database, budget: Int = matchPassBudget, likesAndReports: Int? = nil) throws {
        let likesAndReports = try likesAndReports ?? Int.fetchOne(db, sql: "SELECT count(*) FROM swipe_row WHERE \(matchActionFilter)") ?? 0
        let partitions = max(1, (likesAndReports * MemoryLayout<PairRow>.stride + budget - 1) / budget)
        var rows: [PairRow] = []
        rows.reserveCapacity(likesAndReports / partitions + likesAndReports / (8 * partitions) + 16)
        // The superseded rows (few: the repeats) are skipped by walking their
        // sorted rowids beside the scan, which runs in rowid order: a
        // `NOT IN` probe on every row, and the partition test when there is
        // one partition, would be a third of the scan.
        let superseded = try Int64.fetchAll(db, sql: "SELECT row FROM swipe_superseded ORDER BY row")
        for partition in 0..<partitions {
            rows.removeAll(keepingCapacity: true)
            let read = partitions == 1
                ? try RawCursor(db, sql: "SELECT from_person, to_person, action, at, rowid FROM swipe_row WHERE \(matchActionFilter) ORDER BY rowid")
                : try RawCursor(db, sql: """
                    SELECT from_person, to_person, action, at, rowid FROM swipe_row
                    WHERE \(matchActionFilter) AND (from_person + to_person) % ? = ? ORDER BY rowid
                    """, arguments: [partitions, partition])
            var skip = 0
            while try read.next() {
                let rowid = read.int64(4)
                while skip < superseded.count && superseded[skip] < rowid { skip += 1 }
                if skip < superseded.count && superseded[skip] == rowid { continue }
                guard let action = read.withText(2, SwipeAction.init(utf8:)) else { continue }
                rows.append(PairRow(from: read.int64(0), to: read.int64(1), at: read.int64(3), action: action))
            }
            try foldMatches(db, &rows)
        }
    }

    /// Sorts `rows` by pair, folds each pair's swipes with the rule and
    /// stores the pairs that matched.
    private static func foldMatches(_ db: Database, _ rows: inout [PairRow]) throws {
        try MatchFold.store(MatchFold.fold(&rows), db)
    }

    /// The match pass over one set of swipes: sorted by pair and folded
    /// (``compute()``, no database), then stored (``store(_:)``).
    private final class MatchFold: @unchecked Sendable {   // one thread at a time: the tail made on the writer is handed to its finish, which computes then stores
        typealias Match = (a: Int64, b: Int64, formedAt: Int64)
        private var rows: [PairRow]
        private var matches: [Match] = []

        init(_ rows: consuming [PairRow]) { self.rows = rows }

        func compute() {
            matches = Self.fold(&rows)
            rows = []
        }

        /// Stores the matches and lets go of them (the tail is held until the run ends).
        func store(_ db: Database) throws {
            try Self.store(matches, db)
            matches = []
        }

        /// Makes the stored matches of `pairs` those folded (the folded swipes
        /// are every swipe of those pairs): one read of the stored matches in
        /// pair order beside the folded ones, and only those that differ
        /// deleted or stored. Lets go of the matches.
        func update(_ db: Database, pairs: Set<UInt64>) throws {
            var new: [UInt64: Int64] = [:]
            for m in matches { new[UInt64(m.a) << 32 | UInt64(m.b)] = m.formedAt }
            matches = []
            var gone: [UInt64] = []
            let stored = try RawCursor(db, sql: "SELECT user_a, user_b, formed_at FROM swipe_match")
            while try stored.next() {
                let pair = UInt64(stored.int64(0)) << 32 | UInt64(stored.int64(1))
                guard pairs.contains(pair) else { continue }
                if new[pair] == stored.int64(2) { new[pair] = nil } else { gone.append(pair) }
            }
            let delete = try BulkStatement(db, sql: "DELETE FROM swipe_match WHERE user_a = ? AND user_b = ?")
            for pair in gone.sorted() {
                delete.bind(1, Int64(pair >> 32)); delete.bind(2, Int64(pair & 0xffff_ffff))
                try delete.step()
            }
            try Self.store(new.sorted { $0.key < $1.key }.map { (Int64($0.key >> 32), Int64($0.key & 0xffff_ffff), $0.value) }, db)
        }

        static func fold(_ rows: inout [PairRow]) -> [Match] {
            rows.sort { $0.pair < $1.pair }
            var matches: [Match] = []
            var start = 0
            while start < rows.count {
                let pair = rows[start].pair
                var state = MatchRule.PairState()
                var end = start
                while end < rows.count && rows[end].pair == pair {
                    defer { end += 1 }
                    if rows[end].superseded { continue }
                    state.add(MatchRule.PairSwipe(forward: rows[end].forward, action: rows[end].action,
                                                  timestamp: Timestamp(microseconds: rows[end].at)))
                }
                if let formed = state.matchedAt { matches.append((Int64(pair >> 32), Int64(pair & 0xffff_ffff), formed.microseconds)) }
                start = end
            }
            return matches
        }

        static func store(_ matches: [Match], _ db: Database) throws {
            let insert = try BulkStatement(db, sql: "INSERT INTO swipe_match (user_a, user_b, formed_at) VALUES (?, ?, ?)")
            for m in matches {
                insert.bind(1, m.a); insert.bind(2, m.b); insert.bind(3, m.formedAt)
                try insert.step()
            }
        }
    }
}
