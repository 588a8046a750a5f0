/// Challenge leaderboards as a report family.
///
/// - Partition: a challenge with its check-ins and its group's memberships
///   (``ChallengePartition``), keyed by the challenge id.
/// - Per partition: the check-in rules applied (``CheckinResolver``; every
///   challenge's check-ins are judged, started or not, so rejects do not
///   depend on the as-of day) and, once the challenge has started by the
///   as-of day, its board (``LeaderboardBuilder``) and the check that its
///   points are the counted check-ins up to that day.
/// - Summary: boards, users ranked and check-ins counted (sums), the
///   rejects, the challenges whose points do not add up, and the largest
///   board (most users, then the lowest id in byte order): all merge
///   associatively and commutatively.
///
/// ```swift
/// let family = LeaderboardsFamily(settings: .init(asOf: day, timezone: tz))
/// family.compute(partition).rows.board   // nil before the challenge starts
/// ```
public struct LeaderboardsFamily: ReportFamily {
    public struct Settings: Sendable {
        /// The day boards are computed as of.
        public var asOf: LocalDate
        public var timezone: ReportTimeZone
        public var minimumWorkoutMinutes: Int
        public var rankChangeDays: Int

        public init(asOf: LocalDate, timezone: ReportTimeZone, rules: TallyConfig.Leaderboards = .init()) {
            self.asOf = asOf
            self.timezone = timezone
            minimumWorkoutMinutes = rules.minimumWorkoutMinutes
            rankChangeDays = rules.rankChangeDays
        }
    }

    /// One challenge's rows: its board once started, and its rejected check-ins.
    public struct Rows: Sendable {
        public var board: Leaderboard?
        public var rejects: [Reject]

        package init(board: Leaderboard?, rejects: [Reject]) {
            self.board = board
            self.rejects = rejects
        }
    }

    /// The board with the most users, for the terminal summary.
    public struct Largest: Sendable, Hashable {
        public var challengeId: String
        public var challengeName: String
        public var users: Int
        /// The board's first entry.
        public var leader: LeaderboardEntry?

        package init(challengeId: String, challengeName: String, users: Int, leader: LeaderboardEntry? = nil) {
            self.challengeId = challengeId
            self.challengeName = challengeName
            self.users = users
            self.leader = leader
        }

        /// Whether `self` is the larger of the two: more users, then the lower id (bytes).
        func beats(_ other: Largest) -> Bool {
            users != other.users ? users > other.users : ByteOrder.precedes(challengeId, other.challengeId)
        }
    }

    public struct Summary: Mergeable {
        public var boards = 0
        public var users = 0
        /// Check-ins counted on the boards (up to the as-of day).
        public var counted = 0
        public var rejects = RejectList()
        /// Challenges whose points are not their counted check-ins.
        public var mismatched: [PartitionKey] = []
        public var largest: Largest?

        public init() {}

        public mutating func merge(_ other: Summary) {
            boards += other.boards
            users += other.users
            counted += other.counted
            rejects.merge(other.rejects)
            mismatched += other.mismatched
            if let theirs = other.largest, largest.map({ theirs.beats($0) }) ?? true { largest = theirs }
        }
    }

    public struct Report: Sendable, Equatable {
        public var boards: Int
        public var users: Int
        public var counted: Int
        public var rejects: [Reject]
        /// Challenge ids whose points do not add up, in byte order.
        public var mismatched: [String]
        public var largest: Largest?
    }

    public let settings: Settings
    public var name: String { "leaderboards" }

    public init(settings: Settings) { self.settings = settings }

    public func key(of partition: ChallengePartition) -> PartitionKey { PartitionKey(partition.challenge.id) }

    public func compute(_ partition: ChallengePartition) -> PartitionResult<Rows, Summary> {
        let resolution = CheckinResolver.resolve(
            challenge: partition.challenge, checkins: partition.checkins, memberships: partition.memberships,
            minimumMinutes: settings.minimumWorkoutMinutes, timezone: settings.timezone)
        var summary = Summary()
        summary.rejects = RejectList(resolution.rejects)
        let key = key(of: partition)
        guard partition.challenge.startDate <= settings.asOf else {
            return PartitionResult(key: key, rows: Rows(board: nil, rejects: resolution.rejects), summary: summary)
        }
        var board = LeaderboardBuilder.build(challenge: partition.challenge, counted: resolution.counted,
                                             asOf: settings.asOf, rankChangeDays: settings.rankChangeDays)
        board.uncounted = resolution.uncounted.filter { $0.day <= settings.asOf }.sorted(by: UncountedCheckin.precedes)
        let expected = resolution.counted.filter { $0.day <= settings.asOf }.count
        if board.entries.reduce(0, { $0 + $1.checkins }) != expected { summary.mismatched = [key] }
        summary.boards = 1
        summary.users = board.entries.count
        summary.counted = expected
        summary.largest = Largest(challengeId: board.challenge.id, challengeName: board.challenge.name,
                                  users: board.entries.count, leader: board.entries.first)
        return PartitionResult(key: key, rows: Rows(board: board, rejects: resolution.rejects), summary: summary)
    }

    public func emptySummary() -> Summary { Summary() }

    public func finalise(_ summary: Summary) -> Report {
        Report(boards: summary.boards, users: summary.users, counted: summary.counted, rejects: summary.rejects.sorted,
               mismatched: summary.mismatched.sorted().map(\.description), largest: summary.largest)
    }
}
