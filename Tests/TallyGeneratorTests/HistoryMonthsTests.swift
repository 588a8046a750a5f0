import Foundation
import TallyCore
import Testing
@testable import TallyGenerator

/// `months` (`tally generate --months`): the same customers over a longer or shorter window, each
/// month with the volume the shape and scale give a month.
@Suite("History length")
struct HistoryMonthsTests {
    typealias Shaped = GeneratorShapeTests.Shaped
    static let july = YearMonth(year: 2026, month: 7)!

    @Test("over the profile's own months nothing changes: the profile, and the bytes")
    func ownMonthsChangeNothing() throws {
        for scale in GeneratorScale.allCases {
            for shape in GeneratorShape.allCases {
                let profile = ScaleProfile.of(scale, shape: shape)
                for anchor in [Self.july, YearMonth(year: 2026, month: 10)!, YearMonth(year: 2028, month: 2)!] {
                    #expect(profile.over(months: profile.months, anchorMonth: anchor) == profile, "\(scale) \(shape) \(anchor)")
                }
            }
        }
        #expect(DataGenerator(seed: 1, scale: .small).months == 8)
        #expect(DataGenerator(seed: 1, scale: .medium, shape: .studio).months == 7)
        #expect(DataGenerator(seed: 1, scale: .small, months: 30).months == 30)

        let own = try Shaped(.studio, factor: 0.002, anchor: Self.july)
        let seven = try Shaped(.studio, factor: 0.002, anchor: Self.july, months: 7)
        defer { own.remove(); seven.remove() }
        #expect(own.summary == seven.summary)
        for file in own.summary.files {
            let left = try Data(contentsOf: own.directory.appendingPathComponent(file.path))
            let right = try Data(contentsOf: seven.directory.appendingPathComponent(file.path))
            #expect(left == right, "\(file.path) differs with months: 7")
        }
    }

    @Test("studio over 12 months against 6: the same customers, about the same rows a month")
    func twelveAgainstSix() throws {
        let six = try Shaped(.studio, factor: 0.004, anchor: Self.july, months: 6)
        let twelve = try Shaped(.studio, factor: 0.004, anchor: Self.july, months: 12)
        defer { six.remove(); twelve.remove() }

        for (data, n) in [(six, 6), (twelve, 12)] {
            #expect(data.summary.months == n)
            #expect(data.summary.firstMonth == Self.july.adding(months: -(n - 1)))
            #expect(data.summary.lastDay == LocalDate(year: 2026, month: 7, day: 15)!)
        }
        #expect(twelve.summary.firstMonth == YearMonth(year: 2025, month: 8)!)

        // Populations: the same couples, members, cards, swipe users, check-in groups and members, health users.
        let (a, b) = (six.profile, twelve.profile)
        #expect(a.couples == b.couples && a.swipeUsers == b.swipeUsers && a.groups == b.groups)
        #expect(a.checkinMembers == b.checkinMembers && a.healthUsers == b.healthUsers)
        #expect(abs(b.expenses - 2 * a.expenses) <= 1)
        for path in ["expenses/couples.csv", "expenses/members.csv", "expenses/cards.csv"] {
            #expect(try ids(six.csv(path)) == ids(twelve.csv(path)), "\(path)")
        }
        #expect(try Set(six.ndjson("swipes/users.jsonl").map { $0["id"] as! String })
                == Set(twelve.ndjson("swipes/users.jsonl").map { $0["id"] as! String }))
        let memberships = { (data: Shaped) in
            try Set(data.ndjson("checkins/members.ndjson").map { "\($0["groupId"]!) \($0["userId"]!)" })
        }
        let (groupsSix, groupsTwelve) = (try memberships(six), try memberships(twelve))
        #expect(groupsSix.count > 10 && groupsSix == groupsTwelve)
        let healthUsers = { (data: Shaped) in try Set(data.csv("health/activity.csv").map { $0["userId"]! }) }
        #expect(try healthUsers(six) == healthUsers(twelve))

        // Volume: each month the two share has about the same rows in the big log tables, but for the
        // first of the six, where late-starting couples and group members are still to come (as in the
        // first of the twelve, which the expenses and swipes check too).
        let shared = (1..<6).map { Self.july.adding(months: -5 + $0).description }
        let tables: [(String, (Shaped) throws -> [String: Int], Double)] = [
            ("expenses", { try perMonth($0.csv("expenses/expenses.csv").map { $0["date"]! }) }, 0.12),
            ("swipes", { try perMonth($0.text("swipes/swipes.ndjson"), field: "timestamp") }, 0.12),
            ("check-ins", { try perMonth($0.text("checkins/checkins.ndjson"), field: "createdAt") }, 0.2),
        ]
        for (name, count, tolerance) in tables {
            let (left, right) = (try count(six), try count(twelve))
            for month in shared {
                let (x, y) = (Double(left[month] ?? 0), Double(right[month] ?? 0))
                #expect(x > 0 && abs(x - y) <= tolerance * max(x, y), "\(name) in \(month): \(Int(x)) over 6 months, \(Int(y)) over 12")
            }
            if name != "check-ins" {   // their challenges fall by the window's end, not its start
                let (x, y) = (Double(left["2026-02"] ?? 0), Double(right["2025-08"] ?? 0))
                #expect(x > 0 && abs(x - y) <= tolerance * max(x, y), "\(name) in the first month: \(Int(x)) over 6, \(Int(y)) over 12")
            }
            // Over the window: about twice as many (twice the months, the anchor month half of one in both).
            let ratio = Double(right.values.reduce(0, +)) / Double(left.values.reduce(0, +))
            #expect(ratio > 1.8 && ratio < 2.3, "\(name): \(ratio)× over 12 months")
        }
    }

    @Test("one, two and 120 months make sensible data", arguments: [1, 2, 120])
    func shortAndLongWindows(months: Int) throws {
        // A tiny studio (its anchor month ends on the 15th), tinier for ten years.
        let data = try Shaped(.studio, factor: months == 120 ? 0.0003 : 0.002, anchor: Self.july, months: months)
        defer { data.remove() }
        if months < 3 {
            // And the default shape at small, whose window is whole months.
            let directory = SampleData.temporaryDirectory("months-\(months)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let summary = try DataGenerator(seed: 3, scale: .small, months: months).generate(to: directory)
            #expect(summary.months == months && summary.firstMonth == YearMonth(year: 2026, month: 11 - months)!)
            #expect(summary.files.allSatisfy { $0.records > 0 || $0.path.hasSuffix("connections.ndjson") }, "\(summary.files.filter { $0.records == 0 }.map(\.path))")
        }
        let first = Self.july.adding(months: -(months - 1))
        #expect(data.summary.months == months && data.summary.firstMonth == first)
        let firstDay = first.firstDay, lastDay = LocalDate(year: 2026, month: 7, day: 15)!
        for path in ["expenses/expenses.csv", "expenses/settlements.csv", "swipes/swipes.ndjson", "checkins/checkins.ndjson",
                     "health/activity.csv", "subscriptions/events.csv.gz"] {
            #expect((data.summary.file(path)?.records ?? 0) > 0, "\(path) is empty over \(months) months")
        }
        // Good rows lie in the window (the planted foreign-before-fx expenses and the health exports aside).
        let expenseDates = try data.csv("expenses/expenses.csv").compactMap { LocalDate.parse($0["date"]!) }
        #expect(expenseDates.filter { $0 < firstDay }.count <= data.summary.count(.expenseForeignBeforeFx))
        #expect(expenseDates.allSatisfy { $0 <= lastDay })
        let checkins = try perMonth(data.text("checkins/checkins.ndjson"), field: "createdAt")
        #expect(checkins.keys.allSatisfy { $0 >= first.description && $0 <= "2026-07" }, "\(checkins.keys.sorted())")
        let swipes = try perMonth(data.text("swipes/swipes.ndjson"), field: "timestamp")
        #expect(swipes.keys.allSatisfy { $0 >= first.description && $0 <= "2026-07" })
        // Agreements end after they start; every group has a challenge, and challenges are whole.
        for agreement in try data.csv("expenses/agreements.csv") {
            if let end = LocalDate.parse(agreement["endDate"]!) { #expect(LocalDate.parse(agreement["startDate"]!)! <= end) }
        }
        let challenges = try data.ndjson("checkins/challenges.ndjson")
        let groups = Set(try data.ndjson("checkins/members.ndjson").map { $0["groupId"] as! String })
        #expect(Set(challenges.map { $0["groupId"] as! String }) == groups)
        for challenge in challenges {
            #expect(LocalDate.parse(challenge["startDate"] as! String)! <= LocalDate.parse(challenge["endDate"] as! String)!)
        }
        if months == 120 {
            // Ten years: every month has expenses and swipes, and challenges run through the years.
            let expenses = perMonth(expenseDates.map(\.description))
            #expect((0..<120).allSatisfy { expenses[first.adding(months: $0).description, default: 0] > 0 })
            #expect(swipes.count == 120)
            let years = Set(challenges.map { String(($0["startDate"] as! String).prefix(4)) })
            #expect(years.count >= 10, "\(years.sorted())")
        }
    }

    private func ids(_ rows: [[String: String]]) -> [String] { rows.map { $0["id"]! } }

    /// Rows per `YYYY-MM`, from dates or timestamps.
    private func perMonth(_ values: [String]) -> [String: Int] {
        values.reduce(into: [:]) { $0[String($1.prefix(7)), default: 0] += 1 }
    }

    /// Rows per `YYYY-MM` of NDJSON `text`, by the first 7 characters of `field`'s string.
    private func perMonth(_ text: String, field: String) -> [String: Int] {
        let key = "\"\(field)\":\""
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            guard let range = line.range(of: key) else { continue }
            counts[String(line[range.upperBound...].prefix(7)), default: 0] += 1
        }
        return counts
    }
}
