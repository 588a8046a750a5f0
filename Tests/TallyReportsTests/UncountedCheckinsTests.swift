import Foundation
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyReports

/// A leaderboard's check-ins that did not count: the last sheet of
/// `leaderboards.xlsx` (read back) and a line per participant under the
/// board's text.
@Suite final class UncountedCheckinsTests {
    private let folder: URL

    init() throws { folder = try temporaryFolder() }
    deinit { try? FileManager.default.removeItem(at: folder) }

    static func day(_ text: String) -> LocalDate { LocalDate.parse(text)! }

    static func boards() -> [Leaderboard] {
        let october = Challenge(id: "ch1", groupId: "g1", name: "Outubro Ativo", startDate: day("2026-10-01"), endDate: day("2026-10-31"))
        let june = Challenge(id: "ch2", groupId: "g1", name: "Junho", startDate: day("2026-06-01"), endDate: day("2026-06-30"))
        let entry = LeaderboardEntry(rank: 1, userId: "u-ana", displayName: "Ana", checkins: 3, minutes: 120, rankChange: 0,
                                     streaks: Streaks(current: 1, best: 2))
        var ongoing = Leaderboard(challenge: october, asOf: day("2026-10-31"), comparedWith: day("2026-10-24"), entries: [entry])
        ongoing.uncounted = [
            UncountedCheckin(checkinId: "k1", userId: "u-ana", displayName: "Ana", day: day("2026-10-03"), workoutEntryId: "w1",
                             minutes: 12, reason: .workoutTooShort),
            UncountedCheckin(checkinId: "k2", userId: "u-ana", displayName: "Ana", day: day("2026-10-09"), workoutEntryId: nil,
                             minutes: 40, reason: .checkinNoPhoto),
            UncountedCheckin(checkinId: "k3", userId: "u-ana", displayName: "Ana", day: day("2026-10-10"), workoutEntryId: "w3",
                             minutes: 15, reason: .workoutTooShort),
            UncountedCheckin(checkinId: "k4", userId: "u-bia", displayName: "Bia", day: day("2026-10-11"), workoutEntryId: "w1",
                             minutes: 45, reason: .checkinDuplicateWorkout),
        ]
        let final = Leaderboard(challenge: june, asOf: day("2026-10-31"), comparedWith: day("2026-10-24"), entries: [entry])
        return [ongoing, final]
    }

    static let points = PointsRule(minimumWorkoutMinutes: 30)

    func write(_ boards: [Leaderboard], locale: ReportLocale) throws -> XLSXReader {
        let url = folder.appendingPathComponent("leaderboards-\(locale)-\(boards.count).xlsx")
        let book = try LeaderboardsWorkbook(path: url.path, locale: locale, asOf: Self.day("2026-10-31"),
                                            pointsRule: PointsRule(minimumWorkoutMinutes: 30))
        for board in boards { try book.add(board) }
        try book.close()
        return try XLSXReader(url: url)
    }

    @Test func theLastSheetListsEachCheckInThatDidNotCountWithWhyInTheLocale() throws {
        for (locale, sheet, why) in [(ReportLocale.ptBR, "Check-ins não contados", ["treino mais curto que o mínimo", "check-in sem foto"]),
                                     (.enUS, "Check-ins not counted", ["workout shorter than the minimum", "check-in without a photo"]),
                                     (.esES, "Check-ins no contados", ["entrenamiento más corto que el mínimo", "check-in sin foto"])] {
            let reader = try write(Self.boards(), locale: locale)
            #expect(reader.sheetNames.last == sheet)
            #expect(reader.sheetNames.count == 4)   // the index, two boards, the check-ins that did not count
            #expect(try reader.cell(sheet, "A1") == .string(locale.uncounted(.title)))
            #expect(try reader.strings(sheet, 3) == [locale.fitness(.challenge), locale.uncounted(.participant), locale.fitness(.userId),
                                                     locale.fitness(.date), locale.uncounted(.workout), locale.fitness(.minutes),
                                                     locale.uncounted(.why)])
            #expect(try reader.row(sheet, 4) == [.string("Outubro Ativo"), .string("Ana"), .string("u-ana"),
                                                 .number(excelSerial(Self.day("2026-10-03"))), .string("w1"), .number(12), .string(why[0])])
            #expect(try reader.numberFormat(sheet, "D4") == locale.excelDateFormat)
            #expect(try reader.row(sheet, 5)[4] == nil)   // a check-in without a workout id
            #expect(try reader.row(sheet, 5)[6] == .string(why[1]))
            #expect(try reader.row(sheet, 7)[1] == .string("Bia"))
            #expect(try reader.cell(sheet, "A8") == nil && reader.cell(sheet, "A7") == .string("Outubro Ativo"))
        }
    }

    @Test func withEveryCheckInCountedTheSheetSaysSo() throws {
        let reader = try write([Self.boards()[1]], locale: .enUS)
        #expect(try reader.cell("Check-ins not counted", "A4") == .string("Every check-in counted."))
    }

    @Test func theTextCountsEachParticipantsCheckInsThatDidNotCountByWhy() {
        let text = LeaderboardText.render(Self.boards()[0], locale: .ptBR, pointsRule: Self.points)
        #expect(text.hasSuffix("""

            Check-ins que não contaram, por participante:
              Ana: 3 — treino mais curto que o mínimo (2), check-in sem foto (1)
              Bia: 1 — treino já usado em outro check-in (1)

            """))
        let english = LeaderboardText.render(Self.boards()[0], locale: .enUS, pointsRule: Self.points)
        #expect(english.contains("\n  Ana: 3 — workout shorter than the minimum (2), check-in without a photo (1)\n"))
        #expect(!LeaderboardText.render(Self.boards()[1], locale: .ptBR, pointsRule: Self.points).contains("Check-ins que não contaram"))
    }
}
