import Foundation
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyReports

@Suite("Leaderboards workbook reads right")
struct LeaderboardWorkbookTests {
    static func day(_ text: String) -> LocalDate { LocalDate.parse(text)! }

    /// An ongoing board (two "João Silva", a newcomer, a user who moved down) and a final one.
    static func boards() -> [Leaderboard] {
        let october = Challenge(id: "ch1", groupId: "g1", name: "Outubro Ativo", startDate: day("2026-10-01"), endDate: day("2026-10-31"))
        let june = Challenge(id: "ch2", groupId: "g1", name: "Junho", startDate: day("2026-06-01"), endDate: day("2026-06-30"))
        func entry(_ rank: Int, _ user: String, _ name: String, _ points: Int, _ change: Int?) -> LeaderboardEntry {
            LeaderboardEntry(rank: rank, userId: user, displayName: name, checkins: points, minutes: points * 40, rankChange: change,
                             streaks: Streaks(current: 1, best: 2))
        }
        return [
            Leaderboard(challenge: october, asOf: day("2026-10-31"), comparedWith: day("2026-10-24"), entries: [
                entry(1, "user-a1f3", "João Silva", 12, 2), entry(2, "u-bia", "Bia", 9, -1), entry(3, "user-9c20", "João Silva", 7, nil),
                entry(4, "u-caio", "Caio", 5, 0)]),
            Leaderboard(challenge: june, asOf: day("2026-10-31"), comparedWith: day("2026-10-24"), entries: [
                entry(1, "u-bia", "Bia", 20, 0)]),
        ]
    }

    static let points = PointsRule(minimumWorkoutMinutes: 30)

    func write(locale: ReportLocale = .ptBR) throws -> (URL, XLSXReader) {
        let folder = try temporaryFolder()
        let url = folder.appendingPathComponent("leaderboards.xlsx")
        let book = try LeaderboardsWorkbook(path: url.path, locale: locale, asOf: Self.day("2026-10-31"), pointsRule: Self.points)
        for board in Self.boards() { try book.add(board) }
        try book.close()
        return (folder, try XLSXReader(url: url))
    }

    @Test func theBarChartPutsRankOneOnTopWithItsAxesNamedRight() throws {
        let (folder, book) = try write()
        defer { try? FileManager.default.removeItem(at: folder) }
        let chart = try #require(try book.chartPaths(onSheet: "Outubro Ativo").first)
        let axes = try book.axes(ofChart: chart)
        let category = try #require(axes.first { $0.kind == "catAx" })
        let value = try #require(axes.first { $0.kind == "valAx" })
        #expect(category.orientation == "maxMin")
        #expect(category.title == "Nome")
        #expect(value.title == "Pontos")
        #expect(value.minimum == 0)
        #expect(try book.title(ofChart: chart) == "10 primeiros — Outubro Ativo")
    }

    @Test func theChartCarriesTheShownNamesAndPoints() throws {
        let (folder, book) = try write()
        defer { try? FileManager.default.removeItem(at: folder) }
        let chart = try #require(try book.chartPaths(onSheet: "Outubro Ativo").first)
        let cache = try #require(try book.seriesCaches(ofChart: chart).first)
        #expect(cache.textCategories)
        #expect(cache.categories == ["João Silva (…a1f3)", "Bia", "João Silva (…9c20)", "Caio"])
        #expect(cache.values == [12, 9, 7, 5])
    }

    @Test func rankChangeIsANumberShownWithArrows() throws {
        let (folder, book) = try write()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try book.cell("Outubro Ativo", "B7")?.number == 2)
        #expect(try book.cell("Outubro Ativo", "B8")?.number == -1)
        #expect(try book.cell("Outubro Ativo", "B9")?.string == "novo")
        #expect(try book.cell("Outubro Ativo", "B10")?.number == 0)
        #expect(try book.numberFormat("Outubro Ativo", "B8") == "\"▲\"0;\"▼\"0;\"–\"")
        // The change column is centred, heading and values, so it never touches the name after it.
        #expect(try book.horizontalAlignment("Outubro Ativo", "B6") == "center")
        #expect(try book.horizontalAlignment("Outubro Ativo", "B7") == "center")
        #expect(try book.isRightAligned("Outubro Ativo", "E6"))     // a heading sits over its numbers
        #expect(try !book.isRightAligned("Outubro Ativo", "C6"))
    }

    @Test func duplicateNamesAreToldApartOnTheSheet() throws {
        let (folder, book) = try write()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try book.cell("Outubro Ativo", "C7")?.string == "João Silva (…a1f3)")
        #expect(try book.cell("Outubro Ativo", "C9")?.string == "João Silva (…9c20)")
        #expect(try book.cell("Outubro Ativo", "D7")?.string == "user-a1f3")
    }

    @Test func anEndedChallengeReadsAsFinal() throws {
        let (folder, book) = try write()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try book.cell("Junho", "A1")?.string == "Classificação final: Junho — encerrado em 30/06/2026")
        #expect(try book.cell("Outubro Ativo", "A1")?.string == "Classificação: Outubro Ativo — Posição em 31/10/2026")
        #expect(try book.cell("Índice", "G2")?.string == "Em andamento")
        #expect(try book.cell("Índice", "G3")?.string == "Final")
    }

    @Test func theIndexLinksToEveryChallengeSheet() throws {
        let (folder, book) = try write()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try book.links("Índice") == ["B2": "'Outubro Ativo'!A1", "B3": "'Junho'!A1"])
        #expect(try book.cell("Índice", "J2")?.string == "João Silva (…a1f3)")
    }

    @Test func everyBoardPrintsWithItsHeader() throws {
        let (folder, book) = try write()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try book.sheetElement("Outubro Ativo", "pageSetup")?["orientation"] == "landscape")
        #expect(try book.sheetElement("Outubro Ativo", "pageSetUpPr")?["fitToPage"] == "1")
    }

    /// A board of `members` members, ranked in order (the first three tied for nothing), named `name`.
    static func longBoard(_ name: String, id: String, members: Int) -> Leaderboard {
        let challenge = Challenge(id: id, groupId: "g1", name: name, startDate: day("2026-10-01"), endDate: day("2026-10-31"))
        return Leaderboard(challenge: challenge, asOf: day("2026-10-31"), comparedWith: day("2026-10-24"), entries: (1...members).map {
            LeaderboardEntry(rank: $0, userId: "u\($0)", displayName: "Pessoa \($0)", checkins: 100 - $0, minutes: 60,
                             rankChange: nil, streaks: Streaks(current: 1, best: 1))
        })
    }

    @Test func aBoardLongerThanASheetContinuesOnSheetsThatRepeatTheTitleAndHeader() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("leaderboards.xlsx")
        // 9 rows per sheet: the title, the progress, the points' definition (two lines), a blank row, the header
        // and 3 rows: members, then the blank row and the tie rule's two lines under the board.
        let book = try LeaderboardsWorkbook(path: url.path, locale: .ptBR, asOf: Self.day("2026-10-31"), pointsRule: Self.points,
                                            maxRowsPerSheet: 9)
        try book.add(Self.longBoard("Corrida", id: "ch1", members: 8))
        try book.add(Self.boards()[1])
        try book.add(Self.longBoard("corrida", id: "ch3", members: 4))
        try book.close()
        let reader = try XLSXReader(url: url)

        // Corrida: 8 members and 3 rows under them, 11 rows on 4 sheets; Junho: 1 and 3 on 2; corrida: 4 and 3 on 3.
        #expect(reader.sheetNames == ["Índice", "Corrida", "Corrida (2)", "Corrida (3)", "Corrida (4)", "Junho", "Junho (2)",
                                      "corrida (5)", "corrida (5) (2)", "corrida (5) (3)",
                                      "Check-ins não contados"])
        #expect(Set(reader.sheetNames.map { $0.lowercased() }).count == reader.sheetNames.count, "names are unique ignoring case")
        // The index links each challenge to its first sheet and says how many sheets it takes.
        #expect(try reader.strings("Índice", 2).prefix(2) == ["ch1", "Corrida (4 planilhas)"])
        #expect(try reader.cell("Índice", "B3") == .string("Junho (2 planilhas)"))
        #expect(try reader.cell("Índice", "B4") == .string("corrida (3 planilhas)"))
        #expect(try reader.links("Índice") == ["B2": "'Corrida'!A1", "B3": "'Junho'!A1", "B4": "'corrida (5)'!A1"])

        let title = "Classificação: Corrida — Posição em 31/10/2026"
        let parts = [("Corrida", title), ("Corrida (2)", "\(title) (continuação, linhas 4–6)"),
                     ("Corrida (3)", "\(title) (continuação, linhas 7–8)"), ("Corrida (4)", "\(title) (continuação)")]
        var members: [String] = []
        for (sheet, heading) in parts {
            #expect(try reader.cell(sheet, "A1") == .string(heading))
            #expect(try reader.cell(sheet, "A2") == .string("Dia 31 de 31 · último dia"))
            #expect(try reader.strings(sheet, 6) == ["Posição", "Variação", "Nome", "ID do usuário", "Pontos", "Minutos",
                                                     "Sequência atual", "Melhor sequência"])
            let xml = try reader.sheetXML(sheet)
            #expect(xml.contains("<pane ySplit=\"6\" topLeftCell=\"A7\""), "\(sheet): title and header frozen")
            for row in 7...9 { if let user = try reader.cell(sheet, "D\(row)")?.string { members.append(user) } }
        }
        #expect(members == (1...8).map { "u\($0)" }, "every member once, in rank order")
        // Under the last member, a blank row, then the tie rule, continued on a sheet of its own.
        #expect(try reader.cell("Corrida (3)", "A9") == nil)
        #expect(try reader.cell("Corrida (4)", "A7")?.string?.hasPrefix("Ordem: pontos, depois minutos.") == true)
        // The chart stays on the first sheet and draws only rows that are on it.
        #expect(try reader.chartPaths(onSheet: "Corrida").count == 1)
        #expect(try reader.chartPaths(onSheet: "Corrida (2)").isEmpty && reader.chartPaths(onSheet: "Corrida (3)").isEmpty)
        let chart = try #require(try reader.chartPaths(onSheet: "Corrida").first)
        #expect(try reader.seriesCaches(ofChart: chart).first?.categories == ["Pessoa 1", "Pessoa 2", "Pessoa 3"])
        #expect(try reader.text(chart).contains("<c:f>Corrida!$E$7:$E$9</c:f>"))
        #expect(try reader.cell("corrida (5) (2)", "A1") == .string("Classificação: corrida — Posição em 31/10/2026 (continuação, linhas 4–4)"))
    }

    @Test func theTextMarksFinalBoardsAndTellsNamesApart() {
        let boards = Self.boards()
        let ongoing = LeaderboardText.render(boards[0], locale: .enUS, pointsRule: Self.points)
        #expect(ongoing.contains("As of 10/31/2026"))
        #expect(ongoing.contains("João Silva (…a1f3)") && ongoing.contains("João Silva (…9c20)"))
        let final = LeaderboardText.render(boards[1], locale: .enUS, pointsRule: Self.points)
        #expect(final.contains("Final standings, ended 06/30/2026"))
        #expect(!final.contains("As of"))
    }
}
