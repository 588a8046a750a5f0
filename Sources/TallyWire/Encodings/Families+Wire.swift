import TallyCore

/// The families' summaries on the wire: one line per partial result, not
/// routed by a key (they are merged, in any order, by the family's merge).
/// Lists are written sorted so that equal summaries are equal lines.

extension Reject: WireRecord {
    public static let wireKind = "reject"
    public static let wireVersion = 2
    public static let wireKeyFieldCount = 0

    /// `reject.v2  dataset  file  line  id  reason  code`.
    public func encode(into writer: inout WireWriter) {
        writer.string(dataset)
        writer.string(file)
        writer.int(line)
        writer.string(id)
        why.encode(into: &writer)
    }

    public init(fields: inout WireFields) throws(WireError) {
        self.init(dataset: try fields.string("dataset"), file: try fields.string("file"), line: try fields.int("line"),
                  id: try fields.string("id"), reason: try RejectReason(fields: &fields))
    }
}

extension RejectList {
    /// `count  (reject fields)…`, in rejects.csv order.
    func encode(into writer: inout WireWriter) {
        let rejects = sorted
        writer.count(rejects.count)
        for reject in rejects { reject.encode(into: &writer) }
    }

    init(fields: inout WireFields) throws(WireError) {
        var rejects: [Reject] = []
        for _ in 0..<(try fields.count("rejectCount")) { rejects.append(try Reject(fields: &fields)) }
        self.init(rejects)
    }
}

extension StatementsFamily.Summary: WireRecord {
    public static let wireKind = "statements-summary"
    public static let wireVersion = 2
    public static let wireKeyFieldCount = 0

    /// `statements-summary.v1  (statement-totals fields)  rejectCount  (reject)…  problemCount  (coupleKey  detail)…`.
    public func encode(into writer: inout WireWriter) {
        totals.encode(into: &writer)
        rejects.encode(into: &writer)
        let problems = problems.sorted { $0.key < $1.key }
        writer.count(problems.count)
        for problem in problems {
            writer.byteString(problem.key.bytes)
            writer.string(problem.detail)
        }
    }

    public init(fields: inout WireFields) throws(WireError) {
        self.init()
        totals = try StatementTotals(fields: &fields)
        rejects = try RejectList(fields: &fields)
        for _ in 0..<(try fields.count("problemCount")) {
            let key = PartitionKey(bytes: try fields.byteString("problem.couple"))
            problems.append(.init(key: key, detail: try fields.string("problem.detail")))
        }
    }
}

extension LeaderboardsFamily.Summary: WireRecord {
    public static let wireKind = "leaderboards-summary"
    public static let wireVersion = 2
    public static let wireKeyFieldCount = 0

    /// `leaderboards-summary.v1  boards  users  counted  rejectCount  (reject)…  mismatchedCount  challenge…
    /// hasLargest  [challengeId  challengeName  users  hasLeader  [rank  userId  displayName  checkins  minutes
    /// rankChange  currentStreak  bestStreak]]`.
    public func encode(into writer: inout WireWriter) {
        writer.int(boards)
        writer.int(users)
        writer.int(counted)
        rejects.encode(into: &writer)
        writer.count(mismatched.count)
        for key in mismatched.sorted() { writer.byteString(key.bytes) }
        writer.bool(largest != nil)
        guard let largest else { return }
        writer.string(largest.challengeId)
        writer.string(largest.challengeName)
        writer.int(largest.users)
        writer.bool(largest.leader != nil)
        largest.leader?.encode(into: &writer)
    }

    public init(fields: inout WireFields) throws(WireError) {
        self.init()
        boards = try fields.int("boards")
        users = try fields.int("users")
        counted = try fields.int("counted")
        rejects = try RejectList(fields: &fields)
        for _ in 0..<(try fields.count("mismatchedCount")) {
            mismatched.append(PartitionKey(bytes: try fields.byteString("mismatched")))
        }
        guard try fields.bool("hasLargest") else { return }
        var largest = LeaderboardsFamily.Largest(challengeId: try fields.string("largest.challengeId"),
                              challengeName: try fields.string("largest.challengeName"),
                              users: try fields.int("largest.users"), leader: nil)
        if try fields.bool("largest.hasLeader") { largest.leader = try LeaderboardEntry(fields: &fields) }
        self.largest = largest
    }
}

extension ActivityFamily.Summary: WireRecord {
    public static let wireKind = "activity-summary"
    public static let wireVersion = 1
    public static let wireKeyFieldCount = 0

    /// `activity-summary.v1  userDays  userCount  (userId  days  averageScore  bestScore  daysAt10kSteps)…`,
    /// users by id (bytes); scores as shortest round-trip decimals.
    public func encode(into writer: inout WireWriter) {
        writer.int(userDays)
        let users = users.sorted { ByteOrder.precedes($0.userId, $1.userId) }
        writer.count(users.count)
        for user in users {
            writer.string(user.userId)
            writer.int(user.days)
            writer.double(user.averageScore)
            writer.double(user.bestScore)
            writer.int(user.daysAt10kSteps)
        }
    }

    public init(fields: inout WireFields) throws(WireError) {
        self.init()
        userDays = try fields.int("userDays")
        for _ in 0..<(try fields.count("userCount")) {
            users.append(ActivitySummary(userId: try fields.string("user.id"), days: try fields.int("user.days"),
                                         averageScore: try fields.double("user.averageScore"),
                                         bestScore: try fields.double("user.bestScore"),
                                         daysAt10kSteps: try fields.int("user.daysAt10kSteps")))
        }
    }
}

extension KPIsFamily.SummaryState: WireRecord {
    public static let wireKind = "kpis-summary"
    public static let wireVersion = 3
    public static let wireKeyFieldCount = 0

    /// `kpis-summary.v3  (subscription-kpis fields)  (swipes-daily-numbered fields:
    /// the period)  (the month before)  rejectCount  (reject)…`
    public func encode(into writer: inout WireWriter) {
        subscriptions.encode(into: &writer)
        swipes.encode(into: &writer)
        previousSwipes.encode(into: &writer)
        rejects.encode(into: &writer)
    }

    public init(fields: inout WireFields) throws(WireError) {
        self.init(subscriptions: try SubscriptionKPIs.State(fields: &fields), swipes: try SwipesDailyAccumulator(fields: &fields),
                  previousSwipes: try SwipesDailyAccumulator(fields: &fields), rejects: try RejectList(fields: &fields))
    }
}

extension RejectReason {
    /// `reason  code`: the sentence, then the code (one of ``RejectCode``).
    public func encode(into writer: inout WireWriter) {
        writer.string(text)
        writer.string(code.rawValue)
    }

    public init(fields: inout WireFields) throws(WireError) {
        let text = try fields.string("reason")
        self.init(code: try fields.enumeration("code", RejectCode.self), text: text)
    }
}
