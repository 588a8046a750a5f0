import TallyCore
import TallyIngest
import TallyReports
import TallyWarehouse
import TallyWire

/// The statements' openings kept between runs (``KeyStates``): each run
/// keeps, per couple, what its expenses dated before the month after the
/// period add up to (``TallyCore/LedgerOpening``, made by the family's
/// computation), and a later run reads only the expenses dated from that
/// month on for each couple whose opening still holds, the opening standing
/// for the rest.
///
/// An opening holds for a run when:
/// - the set was kept by the same build, under the same trend length, for
///   a month no later than the run's period, with the fx rates dated
///   before that month as they are now;
/// - the expense winners were not refreshed from scratch since, and no
///   refresh since changed a winner of the couple whose date reaches back
///   before that month (``WarehouseReader/coupleChanges(since:)``);
/// - the couple's row, members and agreements are those it was kept with
///   (its fingerprint);
/// - the family finds it stands (the same members, no limit reached
///   counting from it); otherwise the couple's every row is read again.
///
/// Every couple is computed every month, so every run keeps a new set:
/// each couple's opening of the month after its period, and the keys of
/// orphan rows (no couple) with an empty state, so that the next run
/// streams them although it reads no table that names them.
///
/// When fewer than half the set's keys have an opening that holds, every
/// couple's rows are read, as without a set.
///
/// The set's results are read key by key beside the couples' scan, not
/// held all at once (``WarehouseReader/keyStateCursor(family:)``).
///
/// ```swift
/// let kept = try KeptLedgers(reader, settings: keys.family.settings, fx: fx)
/// let stored = try reader.keyStateCursor(family: KeptLedgers.family)
/// try reader.forEachCoupleKey(openings: kept.openings) { rows in
///     var rows = rows
///     if kept.readsFromMonth(rows.key) {
///         rows.opening = kept.opening(rows, stored: try stored.take(key: rows.key))   // nil: read every row again
///     }
/// }
/// ```
struct KeptLedgers: Sendable {
    /// The family's name in ``KeyStates``.
    static let family = "statements"

    /// The settings the openings this run keeps hold under: the build and
    /// trend length, their month, and the digest of the fx rates before it.
    let settings: String
    /// The refresh of the expense winners this run reads.
    let seq: Int64
    /// What the scan reads from a month on; nil: every couple's every row.
    let openings: WarehouseReader.CoupleOpenings?

    init(_ reader: WarehouseReader, settings family: StatementsFamily.Settings, fx: [FxRate]) throws {
        let base = "tally \(TallyRunner.version) \(ReportReuse.buildDigest) trend \(family.trendMonths)"
        let next = family.period.adding(months: 1)
        settings = Self.settings(base, month: next, fx: fx)
        let set = try reader.keyStates(family: Self.family, results: false)
        // The couples changed since the set was kept only: every opening held until then.
        let changes = try reader.coupleChanges(since: set?.seq ?? .max)
        seq = changes.seq
        guard let set, changes.allSince <= set.seq, let month = Self.month(of: set.settings), month <= family.period,
              set.settings == Self.settings(base, month: month, fx: fx) else {
            openings = nil
            return
        }
        var stale = Set<String>()
        var changed = Set<String>()
        for (key, refresh) in changes.changed where refresh > set.seq {
            guard let bar = key.firstIndex(of: "|") else { continue }
            let couple = String(key[key.index(after: bar)...])
            changed.insert(couple)
            if LedgerOpening.change(reachingBack: String(key[..<bar]), isBefore: month) { stale.insert(couple) }
        }
        // A couple's kept result has its fingerprint; a key of orphan rows has none.
        let couples = Set(set.states.compactMap { !$0.value.fingerprint.isEmpty && !stale.contains($0.key) ? $0.key : nil })
        guard !couples.isEmpty, 2 * couples.count >= set.states.count else {
            openings = nil
            return
        }
        openings = .init(month: month, couples: couples, keys: Set(set.states.keys).union(changed))
    }

    /// Whether the scan read only `key`'s expenses from the openings' month on.
    func readsFromMonth(_ key: String) -> Bool { openings?.couples.contains(key) ?? false }

    /// The kept opening of `rows`' couple (`stored`, its kept result), when
    /// its fingerprint is the one it was kept with and it reads back; nil
    /// otherwise (every row of the couple is then read again).
    func opening(_ rows: CoupleRows, stored: KeyStateSet.State?) -> LedgerOpening? {
        guard let openings, let state = stored, state.fingerprint == Self.fingerprint(rows),
              let opening = try? WireLineReader.records(LedgerOpening.self, in: state.state).first,
              opening.month == openings.month else { return nil }
        return opening
    }

    /// What the set keeps of a key computed in this run: its opening of the
    /// month after the period, or (a key without a couple) the key alone; nil
    /// when it keeps nothing (a limit was reached, or the key holds no row any more).
    func state(_ rows: CoupleRows, closing: LedgerOpening?) -> KeyStateSet.State? {
        if rows.couple == nil { return rows.rowCount == 0 ? nil : KeyStateSet.State(seq: seq, fingerprint: "", state: []) }
        guard let closing else { return nil }
        return KeyStateSet.State(seq: seq, fingerprint: Self.fingerprint(rows), state: closing.wireLine)
    }

    /// The update the run leaves: every key computed in it with what it keeps (`written`).
    func update(_ written: [String: KeyStateSet.State]) -> KeyStateUpdate {
        KeyStateUpdate(family: Self.family, scope: KeyStates.coupleScope, seq: seq, settings: settings,
                       kept: Set(written.keys), written: written)
    }

    // MARK: - Settings and fingerprints

    private static func settings(_ base: String, month: YearMonth, fx: [FxRate]) -> String {
        let hasher = SHA256Hasher()
        let first = month.firstDay
        let before = fx.filter { $0.date < first }.map { "\($0.currency.code) \($0.base.code) \($0.date) \($0.rate)" }
        for rate in before.sorted(by: ByteOrder.precedes) { hasher.update(rate + "\u{1}") }
        return "\(base)|\(month)|\(hasher.hexDigest())"
    }

    /// The month a set's settings name.
    private static func month(of settings: String) -> YearMonth? {
        let parts = settings.split(separator: "|", omittingEmptySubsequences: false)
        return parts.count == 3 ? YearMonth(String(parts[1])) : nil
    }

    /// The couple's row, members and agreements `rows` hold (not where they
    /// were read: a month's copy of the same rows keeps the opening), as text (SHA-256).
    static func fingerprint(_ rows: CoupleRows) -> String {
        let hasher = SHA256Hasher()
        func add(_ text: String) { hasher.update(text + "\u{1}") }
        if let c = rows.couple { add("couple \(c.id) \(c.name) \(c.currency.code)") } else { add("no couple") }
        for m in rows.members.map(\.value).sorted(by: { ByteOrder.precedes($0.id, $1.id) }) { add("member \(m.id) \(m.displayName)") }
        for a in rows.agreements.sorted(by: { ByteOrder.precedes($0.id, $1.id) }) {
            var plain = a
            plain.sourceFile = ""
            plain.sourceLine = 0
            add(String(decoding: plain.wireLine, as: UTF8.self))
        }
        return hasher.hexDigest()
    }
}
