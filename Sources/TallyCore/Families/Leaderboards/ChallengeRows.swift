/// Every row loaded under one challenge key, as read: the challenge (nil
/// when no `challenges` row has the key) with its group's memberships, and
/// the counted check-ins that name it. Whatever feeds the leaderboards
/// (the warehouse's scans in key order, the dataflow's sorted lines) hands
/// each key's rows here, and ``LeaderboardsFamily/partition(_:)`` decides
/// what they come to: one place applies ``OrphanRule``.
///
/// ```swift
/// var rows = ChallengeRows(key: "ch9")
/// rows.checkins = [checkin]                       // a counted check-in naming ch9
/// LeaderboardsFamily.partition(rows).rejects      // ["check-in of unknown challenge …"]
/// ```
public struct ChallengeRows: Sendable {
    /// The challenge id the rows name.
    public var key: String
    public var challenge: Challenge?
    /// The membership spans of the challenge's group, any order.
    public var memberships: [GroupMembership] = []
    /// The counted check-ins naming the challenge, any order.
    public var checkins: [CheckinFact] = []

    public init(key: String, challenge: Challenge? = nil) {
        self.key = key
        self.challenge = challenge
    }

    /// How many rows the key holds (the challenge's own row included), the
    /// measure batches of keys are sized by.
    public var rowCount: Int { (challenge == nil ? 0 : 1) + memberships.count + checkins.count }

    /// What a key's rows come to: the challenge's partition when it exists,
    /// else the rejects of its check-ins.
    public struct Assembly: Sendable {
        public var partition: ChallengePartition?
        public var rejects: [Reject]
    }
}

extension LeaderboardsFamily {
    /// Decides what `rows` come to: without a challenge, every check-in is
    /// an orphan (``OrphanRule``); with one, the partition holds the
    /// check-ins in ``DateThenId`` order (createdAt, then id bytes, then
    /// file and line), the memberships by user id (bytes) then joinedAt.
    public static func partition(_ rows: ChallengeRows) -> ChallengeRows.Assembly {
        guard let challenge = rows.challenge else {
            let rejects = rows.checkins.compactMap { c in
                OrphanRule.reject(.checkin, parentId: rows.key, parentExists: false).map {
                    Reject(dataset: "checkins", file: c.source.file, line: c.source.line, id: c.id, reason: $0)
                }
            }
            return ChallengeRows.Assembly(partition: nil, rejects: rejects)
        }
        let checkins = DateThenId.sorted(rows.checkins) { DateThenId($0.createdAt, id: $0.id, source: $0.source) }
        let memberships = rows.memberships.sorted { a, b in
            let c = ByteOrder.compare(a.userId, b.userId)
            return c == 0 ? a.joinedAt < b.joinedAt : c < 0
        }
        return ChallengeRows.Assembly(
            partition: ChallengePartition(challenge: challenge, checkins: checkins, memberships: memberships), rejects: [])
    }

    /// One key's outcome: the challenge's result, when it exists, and the
    /// summary of its check-ins that belong to no board.
    public struct KeyResult: Sendable {
        public var board: PartitionResult<Rows, Summary>?
        public var unattached: Summary

        public init(board: PartitionResult<Rows, Summary>?, unattached: Summary) {
            self.board = board
            self.unattached = unattached
        }
    }

    /// The family's computation of one key's rows: ``partition(_:)``, then
    /// ``compute(_:)`` of the challenge's partition. Every schedule (the
    /// warehouse's scan, the dataflow's partitions) computes keys through here.
    public func compute(key rows: ChallengeRows) -> KeyResult {
        let assembly = Self.partition(rows)
        var unattached = Summary()
        unattached.rejects = RejectList(assembly.rejects)
        return KeyResult(board: assembly.partition.map(compute), unattached: unattached)
    }
}
