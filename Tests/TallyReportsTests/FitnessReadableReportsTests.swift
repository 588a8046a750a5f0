import Foundation
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyReports

/// What a participant reads on a board and in the activity report: one word for
/// points with its definition, the challenge's progress, the tie rule, short ids,
/// the score's formula, the users not ranked, a heat map that prints readably.
@Suite("Leaderboards and activity explain themselves")
struct FitnessReadableReportsTests {
    static func day(_ text: String) -> LocalDate { LocalDate.parse(text)! }
    static let points = PointsRule(minimumWorkoutMinutes: 30)

    static let running = Leaderboard(
        challenge: Challenge(id: "ch9", groupId: "g1", name: "Projeto 100", startDate: day("2026-10-20"), endDate: day("2026-12-03")),
        asOf: day("2026-10-31"), comparedWith: day("2026-10-24"), entries: [
            LeaderboardEntry(rank: 1, userId: "u-ana", displayName: "Ana", checkins: 10, minutes: 800, rankChange: 1,
                             streaks: Streaks(current: 2, best: 3)),
            LeaderboardEntry(rank: 2, userId: "u-bia", displayName: "Bia", checkins: 9, minutes: 700, rankChange: nil,
                             streaks: Streaks(current: 1, best: 1)),
        ])
    static let finished = Leaderboard(
        challenge: Challenge(id: "ch2", groupId: "g1", name: "Junho", startDate: day("2026-04-19"), endDate: day("2026-06-12")),
        asOf: day("2026-10-31"), comparedWith: day("2026-10-24"), entries: [
            LeaderboardEntry(rank: 1, userId: "u-bia", displayName: "Bia", checkins: 20, minutes: 900, rankChange: 0,
                             streaks: Streaks(current: 1, best: 4)),
            LeaderboardEntry(rank: 2, userId: "u-caio", displayName: "Caio", checkins: 18, minutes: 800, rankChange: 0,
                             streaks: Streaks(current: 0, best: 2)),
        ])

    func leaderboards(_ locale: ReportLocale = .ptBR, points: PointsRule = Self.points) throws -> (URL, XLSXReader) {
        let folder = try temporaryFolder()
        let url = folder.appendingPathComponent("leaderboards.xlsx")
        let book = try LeaderboardsWorkbook(path: url.path, locale: locale, asOf: Self.day("2026-10-31"), pointsRule: points)
        try book.add(Self.running)
        try book.add(Self.finished)
        try book.close()
        return (folder, try XLSXReader(url: url))
    }

    @Test func theColumnTheChartAndTheTextSayPointsAndTheSheetDefinesThem() throws {
        let (folder, book) = try leaderboards()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try book.cell("Projeto 100", "E6")?.string == "Pontos")
        let chart = try #require(try book.chartPaths(onSheet: "Projeto 100").first)
        #expect(try book.axes(ofChart: chart).first { $0.kind == "valAx" }?.title == "Pontos")
        let definition = try [3, 4].compactMap { try book.cell("Projeto 100", "A\($0)")?.string }.joined(separator: " ")
        #expect(definition == "Pontos: 1 ponto por check-in contado (no grupo do desafio, com foto, treino de pelo menos 30 min, "
                + "de quem era membro do grupo, dentro das datas do desafio, cada treino conta uma vez).")
        #expect(try book.cell("Projeto 100", "A5") == nil, "a blank row before the header")
        let text = LeaderboardText.render(Self.running, locale: .ptBR, pointsRule: Self.points)
        #expect(text.contains("1. ▲1   Ana │") && text.contains("10 pontos · 800 min"))
        #expect(text.replacingOccurrences(of: "\n", with: " ").contains(definition))
    }

    @Test func theDefinitionFollowsTheConfiguredMinimumInEveryLanguage() throws {
        let rule = PointsRule(minimumWorkoutMinutes: 45)
        #expect(ReportLocale.enUS.pointsDefinition(rule) == "Points: 1 point per counted check-in (in the challenge's group, with a photo, "
                + "a workout of at least 45 min, by a member of the group at the time, within the challenge's dates, each workout counts once).")
        #expect(ReportLocale.esES.pointsDefinition(rule).hasPrefix("Puntos: 1 punto por check-in contado (en el grupo del desafío, con foto, entrenamiento de al menos 45 min"))
        let (folder, book) = try leaderboards(.enUS, points: rule)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try book.cell("Projeto 100", "E6")?.string == "Points")
        #expect(try book.cell("Projeto 100", "A3")?.string?.contains("at least 45 min") == true)
    }

    @Test func aRunningBoardSaysItsDayAndTheDaysLeft() throws {
        let (folder, book) = try leaderboards()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try book.cell("Projeto 100", "A2")?.string == "Dia 12 de 45 · faltam 33 dias")
        #expect(try book.cell("Índice", "H1")?.string == "Andamento")
        #expect(try book.cell("Índice", "H2")?.string == "Dia 12 de 45 · faltam 33 dias")
        #expect(try book.cell("Índice", "F2")?.number == excelSerial(Self.day("2026-10-31")))
        let text = LeaderboardText.render(Self.running, locale: .enUS, pointsRule: Self.points)
        #expect(text.split(separator: "\n")[2] == "Day 12 of 45 · 33 days left")
        #expect(ReportLocale.ptBR.progress(.running(day: 44, of: 45, daysLeft: 1)) == "Dia 44 de 45 · falta 1 dia")
        #expect(ReportLocale.esES.progress(.running(day: 45, of: 45, daysLeft: 0)) == "Día 45 de 45 · último día")
    }

    @Test func aFinishedBoardHasNoChangeColumnAndIsDatedByItsEnd() throws {
        let (folder, book) = try leaderboards()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try book.strings("Junho", 6) == ["Posição", "Nome", "ID do usuário", "Pontos", "Minutos", "Sequência atual", "Melhor sequência"])
        #expect(try book.cell("Junho", "A2")?.string == "Desafio de 55 dias, encerrado em 12/06/2026")
        #expect(try book.cell("Junho", "B7")?.string == "Bia")
        // The rank is centred, so it does not touch the name beside it, highlighted or not.
        #expect(try book.horizontalAlignment("Junho", "A7") == "center")
        #expect(try book.horizontalAlignment("Junho", "A8") == "center")
        // The index dates the board by its end, not by the as-of day.
        #expect(try book.cell("Índice", "F3")?.number == excelSerial(Self.day("2026-06-12")))
        #expect(try book.cell("Índice", "G3")?.string == "Final")
        // The chart draws the names and points of a board without the change column.
        let chart = try #require(try book.chartPaths(onSheet: "Junho").first)
        #expect(try book.text(chart).contains("<c:f>Junho!$B$7:$B$8</c:f>"))
        #expect(try book.text(chart).contains("<c:f>Junho!$D$7:$D$8</c:f>"))
        let text = LeaderboardText.render(Self.finished, locale: .ptBR, pointsRule: Self.points)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[1].hasSuffix("Classificação final, encerrado em 12/06/2026"))
        #expect(lines[2] == "Desafio de 55 dias, encerrado em 12/06/2026")
        #expect(lines[4].hasPrefix("1. Bia "))
        #expect(!text.contains("=") && !text.contains("▲") && !text.contains("▼"))
    }

    @Test func theNotesSpanTheColumnsWithoutWideningThem() throws {
        let (folder, book) = try leaderboards()
        defer { try? FileManager.default.removeItem(at: folder) }
        for sheet in ["Projeto 100", "Junho"] {
            let widths = try book.columnWidths(sheet)
            // The rank column is as wide as its heading, not as the title, the progress or the definition.
            #expect(try #require(widths[0]) < 12, "\(sheet): \(widths)")
            #expect(try book.cell(sheet, "A3")?.string.map { $0.count <= LeaderboardsWorkbook.noteWidth } == true)
        }
    }

    @Test func theTieRuleIsPrintedUnderEachBoard() throws {
        let (folder, book) = try leaderboards()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Two members on rows 7 and 8, a blank row, then the rule.
        #expect(try book.cell("Projeto 100", "A9") == nil)
        let rule = try [10, 11].compactMap { try book.cell("Projeto 100", "A\($0)")?.string }.joined(separator: " ")
        #expect(rule == ReportLocale.ptBR.tieRule)
        #expect(rule.contains("mesma posição, e a seguinte pula (1,\u{00A0}2,\u{00A0}2,\u{00A0}4)"))
        let text = LeaderboardText.render(Self.finished, locale: .enUS, pointsRule: Self.points)
        #expect(text.replacingOccurrences(of: "\n", with: " ").hasSuffix(
            "Order: points, then minutes. Tied on both: the same rank, and the next rank skips (1,\u{00A0}2,\u{00A0}2,\u{00A0}4); "
            + "tied users listed by user ID. "))
    }

    // MARK: Activity

    static let longIds = ["PjUYncKyKP6Wbn6bhBZdCT9K2v9q", "QsrjTItnYLmccwGiJZv27wyknOz5", "PjUYncKyQ0Wbn6bhBZdCT9K2v9aa",
                          "kAz73pxA8rAh0q8TgpTjn5x4HfDl"]

    /// A day of `user` whose score is `score` (0–100): each part at the same share of its goal.
    static func day(_ user: String, _ date: Int, _ score: Double) -> DailyActivity {
        DailyActivity(userId: user, date: october2026.firstDay.adding(days: date - 1), steps: score / 100 * ActivityScore.stepsGoal,
                      activeCalories: score / 100 * ActivityScore.caloriesGoal, walkingDistanceKm: score / 100 * ActivityScore.kmGoal)
    }

    /// Three users with 31 days and one with 3 (kAz73pxA…), ids of 28 characters, two alike for eight.
    func activity(minimumDays: Int = 7, locale: ReportLocale = .ptBR) throws -> (URL, XLSXReader, ActivityWorkbook) {
        let folder = try temporaryFolder()
        let url = folder.appendingPathComponent("activity.xlsx")
        let book = try ActivityWorkbook(path: url.path, locale: locale, period: october2026, minimumDays: minimumDays)
        for (index, user) in Self.longIds.enumerated() {
            let count = index == 3 ? 3 : 31
            let days = (1...count).map { Self.day(user, $0, 100 - Double(index * 10) - Double($0 % 7)) }
            try book.add(ActivitySummary(userId: user, days: days), days: days)
        }
        try book.close()
        return (folder, try XLSXReader(url: url), book)
    }

    @Test func usersAreShownByShortIdsThatStayDistinctWithTheFullIdBeside() throws {
        let (folder, book, _) = try activity()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try book.strings("Usuários", 4) == ["Posição", "Usuário", "Período", "Dias", "Pontuação média", "Melhor pontuação",
                                                     "Dias com 10 mil passos", "ID do usuário", "Observação"])
        #expect(try (5...8).map { try book.cell("Usuários", "B\($0)")?.string }
                == ["PjUYncKyK…", "QsrjTItn…", "PjUYncKyQ…", "kAz73pxA…"])
        #expect(try (5...8).map { try book.cell("Usuários", "H\($0)")?.string } == Self.longIds)
        #expect(try book.cell("Tendência 1–16", "B2")?.string == "PjUYncKyK…")
    }

    @Test func shortIdsKeepTheUserColumnsNarrow() throws {
        let (folder, book, _) = try activity()
        defer { try? FileManager.default.removeItem(at: folder) }
        for sheet in ["Usuários", "Tendência 1–16", "Tendência 17–31"] {
            let width = try #require(try book.columnWidths(sheet)[1])
            #expect(width < 15, "\(sheet): \(width) (a 28-character id is about 30 wide)")
        }
        #expect(try #require(try book.columnWidths("Usuários")[7]) > 25, "the full id keeps its width")
    }

    @Test func aUserUnderTheMinimumIsListedWithoutARankAndSaysWhy() throws {
        let (folder, book, _) = try activity()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try (1...2).compactMap { try book.cell("Usuários", "A\($0)")?.string }.joined(separator: " ")
                == "Classificação pela pontuação média com uma casa decimal; médias iguais dividem a posição (1,\u{00A0}2,\u{00A0}2,\u{00A0}4). "
                + "É preciso ter pelo menos 7 dias de dados no mês.")
        #expect(try (5...7).map { try book.cell("Usuários", "A\($0)")?.number } == [1, 2, 3])
        #expect(try book.cell("Usuários", "A8") == nil)
        #expect(try book.cell("Usuários", "D8")?.number == 3)
        #expect(try book.cell("Usuários", "I8")?.string == "não classificado: 3 dias de dados, o mínimo é 7")
        #expect(try book.cell("Usuários", "I7") == nil)
        // With a minimum of three days, the same user is ranked, last by average.
        let (other, ranked, _) = try activity(minimumDays: 3)
        defer { try? FileManager.default.removeItem(at: other) }
        #expect(try ranked.cell("Usuários", "A8")?.number == 4)
        #expect(try ranked.cell("Usuários", "B8")?.string == "kAz73pxA…")
        #expect(try ranked.cell("Usuários", "I8") == nil)
    }

    @Test func theSummaryGivesTheScoresFormula() throws {
        let (folder, book, _) = try activity()
        defer { try? FileManager.default.removeItem(at: folder) }
        let formula = try (2...3).compactMap { try book.cell("Resumo", "A\($0)")?.string }.joined(separator: " ")
        #expect(formula == ReportLocale.ptBR.activityScoreFormula)
        #expect(formula.hasPrefix("Pontuação do dia (0–100) = 40 × mín(passos ÷ 10.000; 1) + 30 × mín(calorias ativas ÷ 500 kcal; 1) "
                                  + "+ 30 × mín(distância ÷ 5 km; 1)."))
        #expect(ReportLocale.enUS.activityScoreFormula.hasPrefix("Day score (0–100) = 40 × min(steps ÷ 10,000, 1)"))
        // The tables start after the note and a blank row.
        #expect(try book.cell("Resumo", "A4") == nil)
        #expect(try book.cell("Resumo", "A5")?.string == "Pontuação média")
    }

    @Test func theHeatMapIsSplitInHalfMonthsThatPrintAtSeventyPercentOrMore() throws {
        for locale in ReportLocale.allCases {
            let (folder, book, _) = try activity(locale: locale)
            defer { try? FileManager.default.removeItem(at: folder) }
            let trend = locale.fitness(.trendSheet)
            for sheet in ["\(trend) 1–16", "\(trend) 17–31"] {
                let scale = try book.printScale(sheet)
                #expect(scale >= 70, "\(locale) \(sheet): \(scale)%")
                // Both halves colour a score alike: the scale is pinned to 0, 50 and 100.
                let xml = try book.sheetXML(sheet)
                #expect(xml.contains("<cfvo type=\"num\" val=\"0\"/><cfvo type=\"num\" val=\"50\"/><cfvo type=\"num\" val=\"100\"/>"), "\(sheet)")
            }
            #expect(try book.lastColumn("\(trend) 1–16") == 2 + 16)
            #expect(try book.lastColumn("\(trend) 17–31") == 2 + 15)
        }
        #expect(ActivityWorkbook.trendHalves(dayCount: 30) == [0..<15, 15..<30])
        #expect(ActivityWorkbook.trendHalves(dayCount: 28) == [0..<14, 14..<28])
    }

    @Test func theTextGivesTheFormulaShortIdsAndTheUsersNotRanked() throws {
        let (folder, _, book) = try activity(locale: .enUS)
        defer { try? FileManager.default.removeItem(at: folder) }
        let summaries = Self.longIds.enumerated().map { index, user in
            let count = index == 3 ? 3 : 31
            return ActivitySummary(userId: user, days: (1...count).map {
                Self.day(user, $0, 100 - Double(index * 10) - Double($0 % 7))
            })
        }
        let text = ActivityText.render(period: october2026, summaries: summaries, sparklines: book.trend, locale: .enUS, minimumDays: 7)
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        #expect(flat.contains(ReportLocale.enUS.activityScoreFormula))
        #expect(flat.contains("A user needs at least 7 days of data in the month."))
        #expect(text.contains("\n  1. PjUYncKyK… "))
        #expect(text.contains("\n  3. PjUYncKyQ… "))
        #expect(!text.contains("PjUYncKyKP6Wbn6bhBZdCT9K2v9q"))
        #expect(text.contains("\nNot ranked (fewer than 7 days of data):\n"))
        #expect(text.contains("kAz73pxA…  "))
        #expect(text.hasSuffix("(not ranked: 3 days of data, the minimum is 7)\n"))
    }
}
