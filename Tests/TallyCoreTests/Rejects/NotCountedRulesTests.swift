import Testing
@testable import TallyCore

/// Which month's statement lists a couple's row that could not be read
/// (``RefusedRow/listed(in:)``), and the check-ins a board lists as not
/// counted (``CheckinResolver``, ``LeaderboardsFamily``).
@Suite("Rows that did not count, for the people they concern")
struct NotCountedRulesTests {
    static let october = YearMonth(year: 2026, month: 10)!

    func refused(_ id: String, date: String?) -> RefusedRow {
        RefusedRow(kind: .expense, id: id, written: WrittenRow(coupleId: "c1", date: date, description: "Feira", amount: "73,73",
                                                               currency: "BRL"), reason: .amountNotDecimal)
    }

    @Test func aRowIsListedInTheMonthItsDateNames() {
        #expect(refused("e1", date: "2026-10-12").listed(in: Self.october) == .on(day("2026-10-12")))
        #expect(refused("e1", date: "2026-09-12").listed(in: Self.october) == nil)
        // A day not on the calendar: the month it names, the day unreadable.
        #expect(refused("e1", date: "2026-10-32").listed(in: Self.october) == .unreadableDay)
        #expect(refused("e1", date: "2026-09-31").listed(in: Self.october) == nil)
        #expect(refused("e1", date: "2026-09-31").month == YearMonth(year: 2026, month: 9))
        #expect(refused("e1", date: "2026-13-01").month == nil)
    }

    @Test func aRowWithoutAReadableMonthIsListedOnTheStatementOfTheMonthRun() {
        for date in [nil, "31/10/2026", "2026-10", "ontem", "2026-10-1"] {
            #expect(refused("e1", date: date).listed(in: Self.october) == .undated, "\(date ?? "nil")")
            #expect(refused("e1", date: date).listed(in: YearMonth(year: 2027, month: 1)!) == .undated)
        }
    }

    @Test func theListedRowsGoByDateThenIdWithTheUndatedLast() {
        let rows = [refused("e9", date: nil), refused("e2", date: "2026-10-05"), refused("e1", date: "2026-10-05"),
                    refused("e3", date: "2026-10-02"), refused("e4", date: "2026-10-40"), refused("e5", date: "2026-11-01")]
        #expect(RefusedRow.listed(rows, in: Self.october).map(\.id) == ["e3", "e1", "e2", "e4", "e9"])
    }

    @Test func aCouplesFailedWinnerIsRefusedOnItsStatementAndStillRejected() {
        var rows = CoupleRows(key: "c1", couple: Couple(id: "c1", name: "Ana & Bia", currency: Currency(code: "BRL")!))
        let written = WrittenRow(coupleId: "c1", date: "2026-10-12", description: "Feira", amount: "73,73", currency: "BRL")
        let why = RejectReason.amount("amount", .invalid("73,73"))
        rows.expenses = [
            .init(id: "e1", source: SourceRef(file: "expenses/expenses.csv", line: 4), fact: nil, deleted: false, error: why,
                  written: written),
            .init(id: "e2", source: SourceRef(file: "expenses/expenses.csv", line: 5), fact: nil, deleted: true, error: nil),
        ]
        let assembly = StatementsFamily.partition(rows)
        #expect(assembly.partition?.refused == [RefusedRow(kind: .expense, id: "e1", written: written, reason: .amountNotDecimal)])
        #expect(assembly.rejects.map(\.code) == [.amountNotDecimal])
        let family = StatementsFamily(settings: .init(period: Self.october, fx: FxTable(), itemised: true))
        let statement = family.compute(assembly.partition!).rows.statement
        #expect(statement.refused.map(\.id) == ["e1"])
        #expect(statement.notCounted == 1)
        // Without its couple, the row is a reject only.
        rows.couple = nil
        #expect(StatementsFamily.partition(rows).partition == nil)
    }

    @Test func aBoardListsItsCheckInsThatDidNotCountUpToTheAsOfDay() {
        let member = GroupMembership(groupId: "g1", userId: "u1", joinedAt: ts("2026-09-01T00:00:00Z"), leftAt: nil)
        func checkin(_ id: String, minutes: Int, at created: String, photo: String? = "https://p/1.jpg") -> CheckinFact {
            CheckinFact(id: id, groupId: "g1", challengeId: "c1", userId: "u1", displayName: "Ana", photoURL: photo,
                        workoutEntryId: "w-\(id)", minutes: minutes, createdAt: ts(created), duplicateOf: nil,
                        source: SourceRef(file: "checkins/checkins.ndjson", line: 2))
        }
        let checkins = [checkin("k1", minutes: 45, at: "2026-10-03T10:00:00-03:00"),
                        checkin("k3", minutes: 12, at: "2026-10-10T23:30:00-03:00"),
                        checkin("k2", minutes: 40, at: "2026-10-05T10:00:00-03:00", photo: nil),
                        checkin("k4", minutes: 10, at: "2026-10-25T10:00:00-03:00")]
        let resolution = CheckinResolver.resolve(challenge: challengeC1, checkins: checkins, memberships: [member],
                                                 minimumMinutes: 30, timezone: saoPaulo)
        #expect(resolution.uncounted.map(\.checkinId) == resolution.rejects.map(\.id))
        #expect(resolution.uncounted.first { $0.checkinId == "k3" }?.day == day("2026-10-10"))   // the local day
        let family = LeaderboardsFamily(settings: .init(asOf: day("2026-10-20"), timezone: saoPaulo))
        let board = family.compute(ChallengePartition(challenge: challengeC1, checkins: checkins, memberships: [member])).rows.board
        #expect(board?.uncounted.map(\.checkinId) == ["k2", "k3"])
        #expect(board?.uncounted.map(\.reason) == [.checkinNoPhoto, .workoutTooShort])
        #expect(board?.uncounted.first?.workoutEntryId == "w-k2")
    }
}
