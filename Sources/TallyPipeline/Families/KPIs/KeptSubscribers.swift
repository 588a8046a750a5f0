import TallyCore
import TallyReports
import TallyWarehouse
import TallyWire

/// The KPIs' counts kept between runs (``KeyStates``): the subscribers
/// settled as of a run's period (``TallyCore/KPIsFamily/settledMonth(_:asOf:)``)
/// are counted apart, one set of counts per month of their last event, and
/// kept with the hashes of their keys (``WarehouseReader/subscriberKeyHash(_:)``).
/// A later run (a later or the same period, the same build and KPI
/// settings) takes a month's kept counts, rebased
/// (``TallyCore/SubscriptionKPIs/State/rebased(to:)``), and the warehouse's
/// scan leaves its subscribers' events unread, while none of them changed
/// since (``WarehouseReader/subscriptionChanges(since:)``); a month with a
/// changed subscriber's hash among its keys is counted again, every
/// subscriber of it.
///
/// A hash stands for a key exactly: the run that keeps the months leaves
/// out any month holding the hash of a subscriber it did not settle, a
/// subscriber changed since is looked up among every month's hashes (a
/// match only counts a month again), and a month sharing a hash with a
/// month counted again is counted again too.
///
/// When the months taken hold at least half the subscribers the kept run
/// read, the scan reads the log in its own order and holds the other
/// subscribers' events, sorted in memory, instead of having SQLite sort
/// every event (``WarehouseReader/forEachSubscriber(skipping:gather:_:)``).
///
/// The set holds, per month `YYYY-MM` (counted under the period its
/// fingerprint names): the key hashes (8 bytes each), then the wire lines of
/// the counts (`subscription-kpis`) and of their rejects (`reject`); and
/// under `subscribers`, how many subscribers that run read. A set that
/// cannot be read back is not taken: every subscriber is counted.
///
/// ```swift
/// var kept = try KeptSubscribers(reader, family: family)
/// try reader.forEachSubscriber(skipping: kept.skipping, gather: kept.gathers) { app, user, events, ids in
///     let partition = KPIsFamily.Partition.subscriber(app: app, userId: user, events: events, ids: ids)
///     if !kept.counts(partition) { fold.add(partition) }
/// }
/// var summary = fold.finish()
/// kept.finish(into: &summary)
/// let update = kept.update()
/// ```
struct KeptSubscribers {
    /// The family's name in ``KeyStates``.
    static let family = "kpis"
    /// The set's key holding how many subscribers the run that kept it read.
    static let subscribersKey = "subscribers"

    let family: KPIsFamily
    /// The build and settings the counts hold under.
    let settings: String
    /// The refresh of the subscription events this run reads.
    let seq: Int64
    /// The months whose kept counts this run takes, as kept; after
    /// ``finish(into:)``, every month this run leaves.
    private var months: [YearMonth: Month] = [:]
    /// The subscribers settled as of this run's period, counted in this run,
    /// by the month of their last event: each month's place in `countedMonths`.
    private var counted: [YearMonth: Int] = [:]
    private var countedMonths: [Month] = []
    /// The first instant of this run's period.
    private let periodStart: Timestamp
    /// The hashes of the subscribers this run counts but does not settle.
    private var live: Set<UInt64> = []
    /// The key hashes of the subscribers of the months taken, whose events the scan leaves unread.
    let skipping: Set<UInt64>
    /// Whether the scan reads the log in its own order (most subscribers unread).
    let gathers: Bool

    /// One month's settled subscribers: their key hashes, counts and rejects,
    /// and the refresh of the subscription events they were last counted at.
    struct Month {
        var seq: Int64
        var members: Set<UInt64> = []
        var summary: KPIsFamily.Summary
    }

    init(_ reader: WarehouseReader, family: KPIsFamily) throws {
        self.family = family
        let s = family.settings.subscriptions
        periodStart = s.timezone.startOfDay(family.settings.period.firstDay)
        let catalog = family.settings.catalog.all.map {
            "\($0.productId) \($0.app) \($0.plan) \($0.yearly) \($0.price) \($0.currency.code)"
        }
        settings = "tally \(TallyRunner.version) \(ReportReuse.buildDigest) tz \(s.timezone.identifier) "
            + "conversion \(s.conversionWindowDays) retention \(s.retentionDays) sharing \(s.sharingApp) products "
            + catalog.joined(separator: "; ")
        // The subscribers changed since the kept counts only (none without them).
        let set = try reader.keyStates(family: Self.family)
        let changes = try reader.subscriptionChanges(since: set?.seq ?? .max)
        seq = changes.seq
        var skipping = Set<UInt64>()
        var read = 0
        if let set, set.settings == settings, changes.allSince <= set.seq, let kept = try? Self.decode(set, family: family) {
            // Months counted again: those holding a changed subscriber's hash, then those sharing a
            // hash with one counted again (its subscriber is read, so no month may hold it as kept).
            var recounted = Set(changes.changed.compactMap { $0.value > set.seq ? WarehouseReader.subscriberKeyHash($0.key) : nil })
            var clean = kept.months
            while let (month, counts) = clean.first(where: { !$0.value.members.isDisjoint(with: recounted) }) {
                recounted.formUnion(counts.members)
                clean[month] = nil
            }
            for (month, counts) in clean {
                months[month] = counts
                skipping.formUnion(counts.members)
            }
            read = kept.subscribers
        }
        self.skipping = skipping
        gathers = !skipping.isEmpty && 2 * skipping.count >= read
    }

    /// Subscribers whose counts this run takes as kept.
    var takenCount: Int { skipping.count }

    /// Counts `partition` into its month's counts when the subscriber is
    /// settled as of this run's period and returns true; false otherwise
    /// (the caller counts it).
    mutating func counts(_ partition: KPIsFamily.Partition) -> Bool {
        guard case let .subscriber(app, user, _, _) = partition else { return false }
        let hash = WarehouseReader.subscriberKeyHash(app: app, userId: user)
        guard let month = family.settledMonth(partition, periodStart: periodStart) else {
            live.insert(hash)
            return false
        }
        let i: Int
        if let known = counted[month] {
            i = known
        } else {
            i = countedMonths.count
            counted[month] = i
            countedMonths.append(Month(seq: seq, summary: family.emptySummary()))
        }
        // Changed where the array holds them: a month's counts are never copied out and back.
        family.add(partition, to: &countedMonths[i].summary)
        countedMonths[i].members.insert(hash)
        return true
    }

    /// Merges the months counted in this run into those taken (a taken
    /// month gains the subscribers of that month counted in this run), then
    /// adds every month's counts to `summary`. Called once, after the scan.
    mutating func finish(into summary: inout KPIsFamily.Summary) {
        for (month, i) in counted {
            let new = countedMonths[i]
            guard var kept = months[month] else {
                months[month] = new
                continue
            }
            kept.seq = new.seq
            kept.members.formUnion(new.members)
            kept.summary.merge(new.summary)
            months[month] = kept
        }
        counted = [:]
        countedMonths = []
        for month in months.values { summary.merge(month.summary) }
    }

    /// The set this run leaves: every month's counts under this run's period
    /// (a month taken as kept, with no subscriber counted in this run, keeps
    /// the refresh it was counted at), but those holding the hash of a
    /// subscriber this run did not settle.
    func update() -> KeyStateUpdate {
        var written: [String: KeyStateSet.State] = [:]
        let period = family.settings.period.description
        for (month, counts) in months where counts.members.isDisjoint(with: live) {
            written[month.description] = KeyStateSet.State(seq: counts.seq, fingerprint: period, state: Self.encode(counts))
        }
        let read = months.values.reduce(live.count) { $0 + $1.members.count }
        written[Self.subscribersKey] = KeyStateSet.State(seq: seq, fingerprint: period, state: Array(String(read).utf8))
        return KeyStateUpdate(family: Self.family, scope: KeyStates.subscriptionScope, seq: seq, settings: settings,
                              kept: Set(written.keys), written: written)
    }

    // MARK: - The stored form

    /// The stored form of a month: the number of key hashes (8 bytes, little
    /// endian), the hashes (8 bytes each), then the wire lines of its counts and rejects.
    static func encode(_ month: Month) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 * (month.members.count + 1))
        func append(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        append(UInt64(month.members.count))
        for member in month.members.sorted() { append(member) }
        var writer = WireWriter()
        writer.append(month.summary.subscriptions.state)
        writer.append(contentsOf: month.summary.rejects.sorted)
        return bytes + writer.bytes
    }

    /// The months a set holds, rebased to `family`'s settings, and how many
    /// subscribers the run that kept them read; throws when one cannot be
    /// read back or rebased (the set is then not taken).
    static func decode(_ set: KeyStateSet, family: KPIsFamily) throws -> (subscribers: Int, months: [YearMonth: Month]) {
        var months: [YearMonth: Month] = [:]
        var period: YearMonth?
        var subscribers: Int?
        for (key, stored) in set.states {
            if key == subscribersKey {
                subscribers = Int(String(decoding: stored.state, as: UTF8.self))
                continue
            }
            guard let month = YearMonth(key), let counted = YearMonth(stored.fingerprint),
                  period == nil || period == counted else { throw KeptStateError("kpis month '\(key)'") }
            period = counted
            let bytes = stored.state
            func word(_ i: Int) -> UInt64 {
                bytes[(8 * i)..<(8 * i + 8)].reversed().reduce(0) { $0 << 8 | UInt64($1) }
            }
            guard bytes.count >= 8, case let count = Int(clamping: word(0)), count <= (bytes.count - 8) / 8 else {
                throw KeptStateError("kpis month \(key): no key hashes")
            }
            var kept = Month(seq: stored.seq, summary: family.emptySummary())
            kept.members.reserveCapacity(count)
            for i in 0..<count { kept.members.insert(word(i + 1)) }
            var state: SubscriptionKPIs.State?
            var rejects: [Reject] = []
            try WireLineReader.forEachLine(in: Array(bytes[(8 * (count + 1))...])) { line throws(WireError) in
                if line.is(SubscriptionKPIs.State.self) { state = try line.decode(SubscriptionKPIs.State.self) }
                else { rejects.append(try line.decode(Reject.self)) }
            }
            guard let state, let rebased = state.rebased(to: family.settings.subscriptions),
                  let counts = SubscriptionKPIs(settings: family.settings.subscriptions, catalog: family.settings.catalog,
                                                state: rebased) else { throw KeptStateError("kpis month \(key): other settings") }
            kept.summary.subscriptions = counts
            kept.summary.rejects = RejectList(rejects)
            months[month] = kept
        }
        guard let subscribers else { throw KeptStateError("kpis: no subscriber count") }
        return (subscribers, months)
    }
}
