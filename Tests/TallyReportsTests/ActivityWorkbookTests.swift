import Foundation
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyReports

@Suite("Activity workbook reads right")
struct ActivityWorkbookTests {
    /// A day whose score is `score` (steps alone: 10,000 steps = 40 points).
    static func day(_ user: String, _ date: Int, _ score: Double) -> DailyActivity {
        DailyActivity(userId: user, date: october2026.firstDay.adding(days: date - 1), steps: score / 40 * 10_000,
                      activeCalories: 0, walkingDistanceKm: 0)
    }

    func write() throws -> (URL, XLSXReader, ActivityWorkbook) {
        let folder = try temporaryFolder()
        let url = folder.appendingPathComponent("activity.xlsx")
        let book = try ActivityWorkbook(path: url.path, locale: .ptBR, period: october2026, minimumDays: 1)
        let users = [("a", [Self.day("a", 1, 10), Self.day("a", 3, 20)]),
                     ("b", [Self.day("b", 2, 40)]),
                     ("c", [Self.day("c", 1, 0), Self.day("c", 2, 0)])]
        for (user, days) in users { try book.add(ActivitySummary(userId: user, days: days), days: days) }
        try book.close()
        return (folder, try XLSXReader(url: url), book)
    }

    @Test func usersAreRankedByAverageScore() throws {
        let (folder, book, _) = try write()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(book.sheetNames == ["Resumo", "Usuários", "Tendência 1–16", "Tendência 17–31", "Pontuações"])
        // Two lines of the ranking rule, a blank row, then the table.
        #expect(try book.strings("Usuários", 4).prefix(2) == ["Posição", "Usuário"])
        #expect(try (5...7).map { try book.cell("Usuários", "B\($0)")?.string } == ["b", "a", "c"])
        #expect(try (5...7).map { try book.cell("Usuários", "A\($0)")?.number } == [1, 2, 3])
        #expect(try book.cell("Usuários", "E5")?.number == 40)
    }

    @Test func theTrendLeavesMissingDaysEmptyAndColoursTheScores() throws {
        let (folder, book, workbook) = try write()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Row 3 is a (second): day 1 = 10, day 2 empty (no data, not 0), day 3 = 20.
        let first = "Tendência 1–16"
        #expect(try book.cell(first, "B3")?.string == "a")
        #expect(try book.cell(first, "D3")?.number == 10)
        #expect(try book.cell(first, "E3") == nil)
        #expect(try book.cell(first, "F3")?.number == 20)
        // c's zero days are real zeros.
        #expect(try book.cell(first, "D4")?.number == 0)
        #expect(try book.cell(first, "S1")?.string == "16")
        #expect(try book.cell("Tendência 17–31", "D1")?.string == "17")
        #expect(try book.cell("Tendência 17–31", "R1")?.string == "31")
        #expect(try book.conditionalFormats(first).map(\.types) == [["colorScale"]])
        #expect(workbook.trend["a"]?.prefix(3).map { $0 } == [10, nil, 20])
    }

    @Test func theDailyAverageChartHasADateAxisAndAFixedScale() throws {
        let (folder, book, _) = try write()
        defer { try? FileManager.default.removeItem(at: folder) }
        let charts = try book.chartPaths(onSheet: "Resumo")
        #expect(charts.count == 2)
        let line = try #require(try charts.first { try book.title(ofChart: $0).hasPrefix("Média diária") })
        let axes = try book.axes(ofChart: line)
        #expect(axes.first { $0.kind == "catAx" }?.numberFormat == "dd/mm")
        #expect(axes.first { $0.kind == "valAx" }?.minimum == 0)
        #expect(axes.first { $0.kind == "valAx" }?.maximum == 100)
        let cache = try #require(try book.seriesCaches(ofChart: line).first)
        #expect(cache.categories.count == 31)
        #expect(cache.categories.first == String(excelSerial(october2026.firstDay)).replacingOccurrences(of: ".0", with: ""))
        // Day 1: a (10) and c (0) average 5; day 4 has no data at all and is a gap.
        #expect(cache.values.prefix(4).map { $0 } == [5, 20, 20, nil])
    }

    @Test func theHistogramCarriesItsCountsInTheChart() throws {
        let (folder, book, _) = try write()
        defer { try? FileManager.default.removeItem(at: folder) }
        let histogram = try #require(try book.chartPaths(onSheet: "Resumo").first {
            try book.title(ofChart: $0).hasPrefix("Distribuição") })
        let cache = try #require(try book.seriesCaches(ofChart: histogram).first)
        #expect(cache.categories.first == "0–10")
        #expect(cache.values == [1, 1, 0, 0, 1, 0, 0, 0, 0, 0])
    }

    @Test func theTextRanksUsersAndDrawsGaps() {
        let days = [Self.day("a", 1, 40), Self.day("a", 3, 0)]   // an average of 20
        var line = [Double?](repeating: nil, count: 31)
        line[0] = 100
        line[2] = 0
        let text = ActivityText.render(period: october2026, summaries: [ActivitySummary(userId: "a", days: days)],
                                       sparklines: ["a": line], locale: .enUS, minimumDays: 1)
        #expect(text.contains("1. a  20.0 █·▁" + String(repeating: "·", count: 28)))
        #expect(text.contains("· = no data"))
    }
}
