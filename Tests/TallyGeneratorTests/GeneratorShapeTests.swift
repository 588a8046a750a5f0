import Foundation
import TallyCore
import Testing
@testable import TallyGenerator

/// Each shape's output at a tiny size respects the knobs of its profile.
@Suite("Generator shapes")
struct GeneratorShapeTests {
    /// A data folder of `shape` at `factor` times its medium size, with its profile.
    struct Shaped {
        let directory: URL
        let summary: GenerationSummary
        let profile: ScaleProfile

        init(_ shape: GeneratorShape, factor: Double, anchor: YearMonth = YearMonth(year: 2026, month: 10)!,
             months: Int? = nil) throws {
            directory = SampleData.temporaryDirectory("shape-\(shape.rawValue)")
            let generator = DataGenerator(seed: 11, shape: shape, factor: factor, anchorMonth: anchor, months: months)
            profile = generator.profile
            summary = try generator.generate(to: directory)
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }

        func text(_ path: String) throws -> String {
            let raw = [UInt8](try Data(contentsOf: directory.appendingPathComponent(path)))
            return String(decoding: path.hasSuffix(".gz") ? try SampleData.gunzip(raw) : raw, as: UTF8.self)
        }

        /// CSV records keyed by camelCase field names (malformed rows with another field count left out).
        func csv(_ path: String) throws -> [[String: String]] {
            var text = try text(path)
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            let rows = CSVTestParser.parse(text)
            let header = rows[0].map(SampleData.camelCase)
            return rows.dropFirst().filter { $0.count == header.count }.map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
        }

        func ndjson(_ path: String) throws -> [[String: Any]] {
            try text(path).split(separator: "\n", omittingEmptySubsequences: true).map {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
            }
        }

        /// Members per couple id, from `members.csv`.
        func membersPerCouple() throws -> [String: Int] {
            try csv("expenses/members.csv").reduce(into: [:]) { $0[$1["coupleId"]!, default: 0] += 1 }
        }
    }

    @Test("the default shape is each scale's historical profile, knob for knob", arguments: GeneratorScale.allCases)
    func defaultShapeIsHistorical(scale: GeneratorScale) {
        let profile = ScaleProfile.of(scale, shape: .default)
        #expect(profile == ScaleProfile.of(scale))
        #expect(profile.membersPerCouple == nil && profile.heavyCouples == 0 && profile.heavySwipers == 0)
        #expect(profile.hugeGroups == 0 && profile.compressSwipes && profile.anchorMonthDays == nil)
    }

    @Test("shapes other than default grow with the scale: small is 1/100 of medium, large 5×")
    func scalesMultiplyShapes() {
        for shape in GeneratorShape.allCases where shape != .default {
            let small = ScaleProfile.of(.small, shape: shape)
            let medium = ScaleProfile.of(.medium, shape: shape)
            let large = ScaleProfile.of(.large, shape: shape)
            #expect(medium.swipes == small.swipes * 100, "\(shape)")
            #expect(large.expenses == medium.expenses * 5, "\(shape)")
            #expect(large.couples == medium.couples * 5, "\(shape)")
        }
        let studio = ScaleProfile.of(.medium, shape: .studio)
        #expect(studio.couples == 50_000 && studio.swipeUsers == 200_000 && studio.swipes == 10_000_000)
        #expect(studio.checkins == 985_469 && studio.checkinMembers == 37_869 && studio.healthUsers == 5_000)
        let skewed = ScaleProfile.of(.medium, shape: .skewed)
        #expect(skewed.heavyCoupleExpenses == 50_000 && skewed.hugeGroupMembers == 10_000)
        #expect(Double(skewed.swipes) * skewed.heavySwiperShare / Double(skewed.heavySwipers) >= 1_000_000)
    }

    @Test("studio: the couple count, 2–4 members averaging about 2.1, January to mid-July, plain NDJSON swipes")
    func studio() throws {
        let data = try Shaped(.studio, factor: 0.004, anchor: YearMonth(year: 2026, month: 7)!)
        defer { data.remove() }
        let p = data.profile
        #expect(try data.csv("expenses/couples.csv").count == p.couples)
        let members = try data.membersPerCouple()
        #expect(members.count == p.couples)
        #expect(members.values.allSatisfy { (2...4).contains($0) })
        let mean = Double(members.values.reduce(0, +)) / Double(members.count)
        #expect(mean > 1.95 && mean < 2.4, "mean members per couple \(mean)")
        #expect(data.summary.firstMonth == YearMonth(year: 2026, month: 1)!)
        #expect(data.summary.lastDay == LocalDate(year: 2026, month: 7, day: 15)!)
        let dates = try data.csv("expenses/expenses.csv").compactMap { LocalDate.parse($0["date"]!) }
        #expect(dates.max()! <= LocalDate(year: 2026, month: 7, day: 15)!)
        // Expense rows (versions included) near the profile's target; agreements rarer than in default.
        let expenses = try #require(data.summary.file("expenses/expenses.csv")).records
        #expect(Double(expenses) > Double(p.expenses) * 0.75 && Double(expenses) < Double(p.expenses) * 1.25, "\(expenses)")
        let agreements = try #require(data.summary.file("expenses/agreements.csv")).records
        #expect(agreements < p.couples / 2, "\(agreements) agreements for \(p.couples) couples")
        #expect(data.summary.file("swipes/swipes.ndjson") != nil && data.summary.file("swipes/swipes.ndjson.gz") == nil)
        let swipes = try data.ndjson("swipes/swipes.ndjson")
        #expect(Double(swipes.count) > Double(p.swipes) * 0.85 && Double(swipes.count) < Double(p.swipes) * 1.15)
        let checkins = try #require(data.summary.file("checkins/checkins.ndjson")).records
        #expect(Double(checkins) > Double(p.checkins) * 0.6 && Double(checkins) < Double(p.checkins) * 1.4, "\(checkins)")
        #expect(data.summary.expectedRejects(in: "swipes/swipes.ndjson") > 0)
    }

    @Test("skewed: a couple, a few swipers and a challenge carry huge volume beside ordinary ones")
    func skewed() throws {
        let data = try Shaped(.skewed, factor: 0.005)
        defer { data.remove() }
        let p = data.profile
        let perCouple = try data.csv("expenses/expenses.csv").reduce(into: [String: Int]()) { $0[$1["coupleId"]!, default: 0] += 1 }
        let heavy = perCouple["cpl-000001"] ?? 0
        let ordinary = perCouple.filter { $0.key > "cpl-000002" }.map(\.value).sorted()
        #expect(Double(heavy) >= Double(p.heavyCoupleExpenses) * 0.9, "heavy couple wrote \(heavy)")
        #expect(heavy > 4 * ordinary[ordinary.count / 2], "heavy \(heavy), median \(ordinary[ordinary.count / 2])")

        let swipes = try data.ndjson("swipes/swipes.ndjson.gz")
        let bySwiper = swipes.reduce(into: [String: Int]()) { $0[$1["fromUserId"] as! String, default: 0] += 1 }.values.sorted(by: >)
        let top = bySwiper.prefix(p.heavySwipers).reduce(0, +)
        #expect(Double(top) >= Double(swipes.count) * p.heavySwiperShare * 0.8, "top swipers made \(top) of \(swipes.count)")
        #expect(bySwiper[p.heavySwipers - 1] > 20 * bySwiper[bySwiper.count / 2])

        let perGroup = try data.ndjson("checkins/members.ndjson")
            .reduce(into: [String: Int]()) { $0[$1["groupId"] as! String, default: 0] += 1 }.values.sorted(by: >)
        #expect(perGroup[0] == p.hugeGroupMembers)
        #expect(perGroup[0] > 3 * perGroup[perGroup.count / 2], "\(perGroup)")
        let members = try data.membersPerCouple()
        #expect(members.values.allSatisfy { (2...4).contains($0) })
    }

    @Test("many-couples: many couples of exactly two members, a few expenses each")
    func manyCouples() throws {
        let data = try Shaped(.manyCouples, factor: 0.0005)
        defer { data.remove() }
        let p = data.profile
        let members = try data.membersPerCouple()
        #expect(members.count == p.couples && p.couples == 200)
        #expect(members.values.allSatisfy { $0 == 2 })
        let expenses = try #require(data.summary.file("expenses/expenses.csv")).records
        #expect(Double(expenses) / Double(p.couples) < 12, "\(expenses) expenses for \(p.couples) couples")
    }

    @Test("a shaped generator is deterministic too")
    func shapesAreDeterministic() throws {
        let a = try Shaped(.skewed, factor: 0.002)
        let b = try Shaped(.skewed, factor: 0.002)
        defer { a.remove(); b.remove() }
        #expect(a.summary == b.summary)
        for file in a.summary.files {
            let left = try Data(contentsOf: a.directory.appendingPathComponent(file.path))
            let right = try Data(contentsOf: b.directory.appendingPathComponent(file.path))
            #expect(left == right, "\(file.path) differs between two runs")
        }
    }
}
