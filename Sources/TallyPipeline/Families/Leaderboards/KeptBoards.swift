import Foundation
import TallyCore
import TallyIngest
import TallyReports
import TallyWarehouse
import TallyWire

/// The leaderboards' results kept between runs (``KeyStates``): a challenge
/// whose board is settled (``SettledBoard``) is kept with the refresh of
/// its check-ins it was computed at and the fingerprint of its challenge
/// row and memberships, and a later run takes it as kept, its days moved,
/// without reading its check-ins, while all three are unchanged and the
/// build and the leaderboard settings are those it was kept under. A key
/// without a challenge (its check-ins are orphans) is kept too: the set of
/// kept keys, with the keys changed since, names every key that holds
/// check-ins, so a run need not scan every check-in to find the orphans.
///
/// Without a usable set (none yet, other settings, or check-ins refreshed
/// from scratch since), every key is computed, and the run keeps a new set.
///
/// ```swift
/// let kept = try KeptBoards(reader, settings: keys.family.settings, config: config)
/// try reader.forEachChallengeKey(selection: kept.selection) { rows, taken in
///     let keyed = kept.result(rows, taken: taken, family: keys.family)
///     …
/// }
/// ```
struct KeptBoards: Sendable {
    /// The family's name in ``KeyStates``.
    static let family = "leaderboards"

    /// The build and settings a kept result holds under.
    let settings: String
    /// The refresh of the check-ins this run reads.
    let seq: Int64
    /// The kept set, when this run may take from it.
    let usable: KeyStateSet?
    let changes: KeyChanges
    let asOf: LocalDate

    init(_ reader: WarehouseReader, settings family: LeaderboardsFamily.Settings, config: TallyConfig) throws {
        let settings = "tally \(TallyRunner.version) \(ReportReuse.buildDigest) tz \(family.timezone.identifier) "
            + String(reflecting: config.leaderboards)
        let set = try reader.keyStates(family: Self.family)
        // The challenges changed since the set was kept only: every kept result held until then.
        let changes = try reader.checkinChanges(since: set?.seq ?? .max)
        self.changes = changes
        self.settings = settings
        seq = changes.seq
        asOf = family.asOf
        usable = set.flatMap { $0.settings == settings && changes.allSince <= $0.seq ? $0 : nil }
    }

    /// What the warehouse's scan may leave unread, and the kept result it
    /// takes instead: nil (read every key) without a usable set.
    var selection: WarehouseReader.ChallengeKeySelection<LeaderboardsFamily.KeyResult>? {
        guard let usable else { return nil }
        let changedSince = changes.changed.compactMap { $0.value > usable.seq ? $0.key : nil }
        return .init(keys: Set(usable.states.keys).union(changedSince)) { rows in self.kept(rows) }
    }

    /// The kept result of `rows`' key, as stored, when it holds for this run
    /// (one that cannot be read back is computed again).
    private func kept(_ rows: ChallengeRows) -> LeaderboardsFamily.KeyResult? {
        guard let state = usable?.states[rows.key], changes.unchanged(rows.key, since: state.seq),
              state.fingerprint == Self.fingerprint(rows),
              let day = Self.asOf(of: state.state), day <= asOf else { return nil }
        return try? Self.decode(state.state)
    }

    /// One key's result, and whether the set keeps the key.
    struct Keyed: Sendable {
        var key: String
        var result: LeaderboardsFamily.KeyResult
        /// Whether the result was taken as kept (the set keeps it as stored).
        var reused: Bool
        /// The state to keep for a result computed in this run (nil: taken as kept, or not settled).
        var written: KeyStateSet.State?

        /// Whether the set keeps the key after this run.
        var kept: Bool { reused || written != nil }
    }

    /// The result of `rows`' key: `taken` (the kept result the scan took
    /// instead of its check-ins), its days moved, else computed by `family`,
    /// and kept when settled.
    func result(_ rows: ChallengeRows, taken: LeaderboardsFamily.KeyResult?, family: LeaderboardsFamily) -> Keyed {
        if let taken {
            return Keyed(key: rows.key, result: SettledBoard.rebased(taken, settings: family.settings), reused: true)
        }
        let result = family.compute(key: rows)
        guard SettledBoard.isSettled(result, rows: rows, settings: family.settings) else {
            return Keyed(key: rows.key, result: result, reused: false)
        }
        let state = KeyStateSet.State(seq: seq, fingerprint: Self.fingerprint(rows), state: Self.encode(result, asOf: asOf))
        return Keyed(key: rows.key, result: result, reused: false, written: state)
    }

    /// The update the run leaves: the keys kept (`kept`), with those computed in this run (`written`).
    func update(kept: Set<String>, written: [String: KeyStateSet.State]) -> KeyStateUpdate {
        KeyStateUpdate(family: Self.family, scope: KeyStates.checkinScope, seq: seq, settings: settings, kept: kept,
                       written: written)
    }

    // MARK: - Fingerprints and the stored form

    /// The challenge row and memberships `rows` hold, as text (SHA-256).
    static func fingerprint(_ rows: ChallengeRows) -> String {
        let hasher = SHA256Hasher()
        func add(_ text: String) { hasher.update(text + "\u{1}") }
        if let c = rows.challenge {
            add("challenge \(c.id) \(c.groupId) \(c.name) \(c.startDate) \(c.endDate)")
        } else {
            add("no challenge")
        }
        let memberships = rows.memberships.map { "\($0.userId) \($0.joinedAt.microseconds) \($0.leftAt?.microseconds ?? -1)" }
        for m in memberships.sorted(by: ByteOrder.precedes) { add(m) }
        return hasher.hexDigest()
    }

    /// The stored form: the day the result was computed as of, a line feed,
    /// then its wire lines (the summary of rows of no board, then the board's result when there is one).
    static func encode(_ result: LeaderboardsFamily.KeyResult, asOf: LocalDate) -> [UInt8] {
        var writer = WireWriter()
        writer.append(FlowRecord.leaderboardsSummary(result.unattached))
        if let board = result.board { writer.append(FlowRecord.board(board)) }
        return Array((asOf.description + "\n").utf8) + writer.bytes
    }

    /// The day a stored result was computed as of.
    static func asOf(of state: [UInt8]) -> LocalDate? {
        guard let end = state.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        return LocalDate.parse(utf8: state[..<end])
    }

    /// The result a stored form holds.
    static func decode(_ state: [UInt8]) throws -> LeaderboardsFamily.KeyResult {
        guard let end = state.firstIndex(of: UInt8(ascii: "\n")) else { throw KeptStateError("no day") }
        var result = LeaderboardsFamily.KeyResult(board: nil, unattached: LeaderboardsFamily.Summary())
        for record in try WireLineReader.records(FlowRecord.self, in: Array(state[(end + 1)...])) {
            switch record {
            case .leaderboardsSummary(let summary): result.unattached = summary
            case .board(let board): result.board = board
            default: throw KeptStateError("not a leaderboards record")
            }
        }
        return result
    }
}

/// A kept result that cannot be read back (``KeptBoards`` computes such a key again instead of taking it).
struct KeptStateError: Error, CustomStringConvertible {
    var description: String
    init(_ what: String) { description = "a kept leaderboards result cannot be read: \(what)" }
}
