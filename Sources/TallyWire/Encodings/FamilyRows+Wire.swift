import TallyCore

// The families' partition rows on the wire: what one partition's
// computation gives besides its summary (a couple's statement, a
// challenge's board, a user's scores), so a partition computed in one
// process can be rendered in another. Keyed by the partition's id.

extension Reject {
    /// `count  (reject fields)…`, in the list's order.
    static func encode(_ rejects: [Reject], into writer: inout WireWriter) {
        writer.count(rejects.count)
        for reject in rejects { reject.encode(into: &writer) }
    }

    /// A list written by ``encode(_:into:)``.
    static func list(_ fields: inout WireFields) throws(WireError) -> [Reject] {
        var rejects: [Reject] = []
        for _ in 0..<(try fields.count("rejectCount")) { rejects.append(try Reject(fields: &fields)) }
        return rejects
    }
}

extension LeaderboardEntry {
    /// `rank  userId  displayName  checkins  minutes  rankChange?  currentStreak  bestStreak`.
    func encode(into writer: inout WireWriter) {
        writer.int(rank)
        writer.string(userId)
        writer.string(displayName)
        writer.int(checkins)
        writer.int(minutes)
        writer.int(rankChange.map(Int64.init))
        writer.int(streaks.current)
        writer.int(streaks.best)
    }

    init(fields: inout WireFields) throws(WireError) {
        let rank = try fields.int("entry.rank")
        let userId = try fields.string("entry.userId")
        let displayName = try fields.string("entry.displayName")
        let checkins = try fields.int("entry.checkins")
        let minutes = try fields.int("entry.minutes")
        let rankChange = try fields.optionalInt64("entry.rankChange").map { Int($0) }
        let streaks = Streaks(current: try fields.int("entry.currentStreak"), best: try fields.int("entry.bestStreak"))
        self.init(rank: rank, userId: userId, displayName: displayName, checkins: checkins, minutes: minutes,
                  rankChange: rankChange, streaks: streaks)
    }
}

extension StatementsFamily.Rows: WireRecord {
    public static let wireKind = "statement"
    public static let wireVersion = 2
    public static let wireKeyFieldCount = 1

    /// `statement.v1  (couple fields)  period  method  expenseCount  balanceCount  (memberId  displayName
    /// opening  paid  share  sent  received  closing)…  transferCount  (from  to  amount)…  categoryCount
    /// (tag  amount  shareCount  (memberId  share)…)…  trendCount  (month  amount)…  rejectCount  (reject)…  rejectCount  (reject)…`: the statement's
    /// rejects, then the partition's (each list in its order).
    /// A category's shares by member id (bytes). The itemised month, the rows left out, the agreements in
    /// force, the month's conversions and its audit notes are not sent: the couple's files are written where
    /// the statement is computed.
    public func encode(into writer: inout WireWriter) {
        let s = statement
        s.couple.encode(into: &writer)
        writer.month(s.period)
        writer.enumeration(s.method)
        writer.int(s.expenseCount)
        writer.count(s.balances.count)
        for b in s.balances {
            writer.string(b.memberId)
            writer.string(b.displayName)
            writer.int(b.opening)
            writer.int(b.paid)
            writer.int(b.share)
            writer.int(b.settlementsSent)
            writer.int(b.settlementsReceived)
            writer.int(b.closing)
        }
        writer.count(s.transfers.count)
        for t in s.transfers {
            writer.string(t.from)
            writer.string(t.to)
            writer.int(t.amount)
        }
        writer.count(s.categories.count)
        for c in s.categories {
            writer.string(c.tag)
            writer.int(c.amount)
            let shares = c.shareByMember.sorted { ByteOrder.precedes($0.key, $1.key) }
            writer.count(shares.count)
            for (member, share) in shares {
                writer.string(member)
                writer.int(share)
            }
        }
        writer.count(s.trend.count)
        for point in s.trend {
            writer.month(point.month)
            writer.int(point.amount)
        }
        Reject.encode(s.rejects, into: &writer)
        Reject.encode(rejects, into: &writer)
    }

    public init(fields: inout WireFields) throws(WireError) {
        let couple = try Couple(fields: &fields)
        let period = try fields.month("period")
        let method = try fields.enumeration("method", TransferMethod.self)
        let expenseCount = try fields.int("expenseCount")
        var balances: [MemberBalance] = []
        for _ in 0..<(try fields.count("balanceCount")) {
            balances.append(MemberBalance(
                memberId: try fields.string("balance.memberId"), displayName: try fields.string("balance.displayName"),
                opening: try fields.int64("balance.opening"), paid: try fields.int64("balance.paid"),
                share: try fields.int64("balance.share"), settlementsSent: try fields.int64("balance.sent"),
                settlementsReceived: try fields.int64("balance.received"), closing: try fields.int64("balance.closing")))
        }
        var transfers: [Transfer] = []
        for _ in 0..<(try fields.count("transferCount")) {
            transfers.append(Transfer(from: try fields.string("transfer.from"), to: try fields.string("transfer.to"),
                                      amount: try fields.int64("transfer.amount")))
        }
        var categories: [CategoryTotal] = []
        for _ in 0..<(try fields.count("categoryCount")) {
            let tag = try fields.string("category.tag")
            let amount = try fields.int64("category.amount")
            var shares: [String: Int64] = [:]
            for _ in 0..<(try fields.count("category.shareCount")) {
                let member = try fields.string("share.memberId")
                shares[member] = try fields.int64("share.amount")
            }
            categories.append(CategoryTotal(tag: tag, amount: amount, shareByMember: shares))
        }
        var trend: [(month: YearMonth, amount: Int64)] = []
        for _ in 0..<(try fields.count("trendCount")) {
            trend.append((try fields.month("trend.month"), try fields.int64("trend.amount")))
        }
        let statementRejects = try Reject.list(&fields)
        self.init(statement: CoupleStatement(couple: couple, period: period, balances: balances, transfers: transfers,
                                             method: method, categories: categories, trend: trend,
                                             expenseCount: expenseCount, rejects: statementRejects),
                  rejects: try Reject.list(&fields))
    }
}

extension LeaderboardsFamily.Rows: WireRecord {
    public static let wireKind = "board"
    public static let wireVersion = 2
    public static let wireKeyFieldCount = 0

    /// `board.v2  hasBoard  [(challenge fields)  asOf  comparedWith  entryCount  (entry)…  uncountedCount
    /// (checkinId  userId  displayName  day  workoutEntryId?  minutes  code)…]  rejectCount  (reject)…`.
    public func encode(into writer: inout WireWriter) {
        writer.bool(board != nil)
        if let board {
            board.challenge.encode(into: &writer)
            writer.date(board.asOf)
            writer.date(board.comparedWith)
            writer.count(board.entries.count)
            for entry in board.entries { entry.encode(into: &writer) }
            writer.count(board.uncounted.count)
            for u in board.uncounted {
                writer.string(u.checkinId); writer.string(u.userId); writer.string(u.displayName); writer.date(u.day)
                writer.string(u.workoutEntryId); writer.int(u.minutes); writer.string(u.reason.rawValue)
            }
        }
        Reject.encode(rejects, into: &writer)
    }

    public init(fields: inout WireFields) throws(WireError) {
        var board: Leaderboard?
        if try fields.bool("hasBoard") {
            let challenge = try Challenge(fields: &fields)
            let asOf = try fields.date("asOf")
            let comparedWith = try fields.date("comparedWith")
            var entries: [LeaderboardEntry] = []
            for _ in 0..<(try fields.count("entryCount")) { entries.append(try LeaderboardEntry(fields: &fields)) }
            var uncounted: [UncountedCheckin] = []
            for _ in 0..<(try fields.count("uncountedCount")) {
                uncounted.append(UncountedCheckin(
                    checkinId: try fields.string("checkinId"), userId: try fields.string("userId"),
                    displayName: try fields.string("displayName"), day: try fields.date("day"),
                    workoutEntryId: try fields.optionalString("workoutEntryId"), minutes: try fields.int("minutes"),
                    reason: try fields.enumeration("code", RejectCode.self)))
            }
            board = Leaderboard(challenge: challenge, asOf: asOf, comparedWith: comparedWith, entries: entries)
            board?.uncounted = uncounted
        }
        self.init(board: board, rejects: try Reject.list(&fields))
    }
}

extension ActivityFamily.Rows: WireRecord {
    public static let wireKind = "activity-rows"
    public static let wireVersion = 1
    public static let wireKeyFieldCount = 0

    /// `activity-rows.v1  userId  days  averageScore  bestScore  daysAt10kSteps  dayCount  (daily-activity fields)…`.
    public func encode(into writer: inout WireWriter) {
        writer.string(summary.userId)
        writer.int(summary.days)
        writer.double(summary.averageScore)
        writer.double(summary.bestScore)
        writer.int(summary.daysAt10kSteps)
        writer.count(days.count)
        for day in days { day.encode(into: &writer) }
    }

    public init(fields: inout WireFields) throws(WireError) {
        let summary = ActivitySummary(userId: try fields.string("userId"), days: try fields.int("days"),
                                      averageScore: try fields.double("averageScore"), bestScore: try fields.double("bestScore"),
                                      daysAt10kSteps: try fields.int("daysAt10kSteps"))
        var days: [DailyActivity] = []
        for _ in 0..<(try fields.count("dayCount")) { days.append(try DailyActivity(fields: &fields)) }
        self.init(days: days, summary: summary)
    }
}
