import Foundation
import TallyCore
import Testing
@testable import TallyGenerator

/// The awkward spellings and deliberately bad rows real exports have, counted
/// independently from the files and compared with the summary.
@Suite("Awkward cases")
struct AwkwardCasesTests {
    var summary: GenerationSummary { SampleData.shared.summary }

    @Test("every bad-row kind is planted, rejected kinds a few times each")
    func everyKindPlanted() {
        for kind in BadRowKind.allCases {
            #expect(summary.count(kind) > 0, "\(kind) missing")
            if kind.outcome == .rejected { #expect(summary.count(kind) == 3, "\(kind)") }
            #expect(summary.file(kind.file) != nil)
        }
        #expect(summary.expectedRejects(in: "expenses/expenses.csv") == 13 * 3)
    }

    @Test("CSV spellings: BOM, CRLF, snake_case headers, quoted commas, quotes and newlines, no final newline")
    func csvSpellings() throws {
        let couples = try SampleData.bytes("expenses/couples.csv")
        #expect(Array(couples.prefix(3)) == [0xEF, 0xBB, 0xBF])
        #expect(try SampleData.text("expenses/couples.csv").contains("\r\n"))
        #expect(try SampleData.text("expenses/settlements.csv").contains("\r\n"))
        let expenses = try SampleData.text("expenses/expenses.csv")
        #expect(expenses.hasPrefix("\u{FEFF}id,couple_id,paid_by,amount,"))
        #expect(!expenses.contains("\r\n"))
        #expect(try SampleData.text("expenses/members.csv").hasPrefix("id,couple_id,display_name"))
        let fields = try SampleData.csv("expenses/expenses.csv").flatMap { $0 }
        #expect(fields.contains { $0.contains("\n") }, "a quoted newline")
        #expect(fields.contains { $0.contains("\"") }, "a doubled quote")
        #expect(fields.contains { $0.contains(",") && $0.count > 5 }, "a quoted comma")
        #expect(fields.contains("Almoço no Pão de Açúcar"))
        #expect(fields.contains { $0.unicodeScalars.contains { $0.properties.isEmojiPresentation } }, "an emoji")
        #expect(try SampleData.bytes("expenses/cards.csv").last != 10, "cards.csv ends without a newline")
    }

    @Test("expenses: split types, refunds, remainders, foreign currencies, agreements")
    func expenseVariety() throws {
        let rows = try SampleData.csvRecords("expenses/expenses.csv")
        let types = Set(rows.map { $0["splitType"]! })
        #expect(types.isSuperset(of: ["", "equal", "shares", "percentage", "exact", "full"]))
        #expect(rows.contains { $0["amount"]!.hasPrefix("-") }, "a refund")
        #expect(rows.contains { $0["amount"] == "100.01" })
        #expect(Set(rows.map { $0["currency"]! }).isSuperset(of: ["BRL", "USD", "EUR", "JPY"]))
        #expect(rows.contains { $0["currency"] == "JPY" && !$0["amount"]!.contains(".") })
        #expect(rows.contains { !$0["agreementId"]!.isEmpty })
        let agreements = try SampleData.csvRecords("expenses/agreements.csv")
        #expect(agreements.contains { $0["dayOfMonth"] == "31" })
        #expect(agreements.contains { $0["endDate"]!.isEmpty } && agreements.contains { !$0["endDate"]!.isEmpty })
        let couples = try SampleData.csvRecords("expenses/couples.csv")
        #expect(Set(couples.map { $0["currency"]! }) == ["BRL", "USD", "EUR"])
        let members = try SampleData.csvRecords("expenses/members.csv")
        let sizes = Dictionary(grouping: members, by: { $0["coupleId"]! }).mapValues(\.count)
        #expect(sizes.values.contains(3) && sizes.values.contains(4))
    }

    @Test("expenses: superseded and deleted versions match the summary")
    func expenseVersions() throws {
        let rows = try SampleData.csv("expenses/expenses.csv").dropFirst()
        let wellFormed = rows.filter { $0.count == 15 && !$0[0].isEmpty }
        let ids = wellFormed.map { $0[0] }
        #expect(ids.count - Set(ids).count == summary.count(.expenseSuperseded))
        #expect(wellFormed.filter { !$0[14].isEmpty }.count == summary.count(.expenseDeleted))
        #expect(rows.filter { $0.count != 15 }.count == summary.count(.expenseWrongFieldCount))
        #expect(rows.filter { $0.count == 15 && $0[0].isEmpty }.count == summary.count(.expenseEmptyId))
        let amounts = wellFormed.map { $0[3] }
        #expect(amounts.filter { $0.contains(",") }.count == summary.count(.expenseCommaDecimal))
        #expect(wellFormed.filter { $0[4] == "JPY" && $0[3].hasSuffix(".0") }.count == summary.count(.expenseJPYWithDecimals))
        #expect(wellFormed.filter { LocalDate.parse($0[5]) == nil }.count == summary.count(.expenseInvalidDate))
        #expect(wellFormed.filter { ["half", "ratio", "metade"].contains($0[10]) }.count == summary.count(.expenseUnknownSplitType))
        #expect(wellFormed.filter { $0[1].hasPrefix("cpl-9") }.count == summary.count(.expenseUnknownCouple))
        #expect(wellFormed.filter { $0[11].contains("mbr-9") }.count == summary.count(.expenseUnknownSplitMember))
        #expect(wellFormed.filter { if case .failure(.missingOffset) = Timestamp.parse($0[13]) { return true }; return false }.count
                == summary.count(.expenseTimestampWithoutOffset))
    }

    @Test("swipes: repeated ids, self swipes, unknown actions, offsets")
    func swipes() throws {
        let swipes = try SampleData.ndjson("swipes/swipes.ndjson.gz")
        let ids = swipes.map { $0["id"] as! String }
        #expect(ids.count - Set(ids).count == summary.count(.swipeRepeatedId))
        #expect(swipes.filter { ($0["fromUserId"] as! String) == ($0["toUserId"] as! String) }.count == summary.count(.swipeOnSelf))
        let known: Set<String> = ["like", "pass", "super_like", "report"]
        #expect(swipes.filter { !known.contains($0["action"] as! String) }.count == summary.count(.swipeUnknownAction))
        let actions = Set(swipes.map { $0["action"] as! String })
        #expect(actions.isSuperset(of: known))
        let stamps = swipes.map { $0["timestamp"] as! String }
        #expect(stamps.contains { $0.hasSuffix("-03:00") } && stamps.contains { $0.hasSuffix("Z") && $0.contains(".") })
        #expect(stamps.filter { if case .failure(.missingOffset) = Timestamp.parse($0) { return true }; return false }.count
                == summary.count(.swipeTimestampWithoutOffset))
        // Mutual likes make matches.
        var likes: Set<String> = []
        for s in swipes where ["like", "super_like"].contains(s["action"] as! String) {
            likes.insert((s["fromUserId"] as! String) + ">" + (s["toUserId"] as! String))
        }
        #expect(likes.contains { pair in
            let parts = pair.split(separator: ">")
            return likes.contains(parts[1] + ">" + parts[0])
        })
    }

    @Test("check-ins: each rule broken, near-midnight times, a blank line")
    func checkins() throws {
        let checkins = try SampleData.ndjson("checkins/checkins.ndjson")
        let noPhoto = checkins.filter { ($0["checkInPhotoURL"] as? String ?? "").isEmpty }
        #expect(noPhoto.count == summary.count(.checkinWithoutPhoto))
        #expect(checkins.filter { ($0["workoutDurationMinutes"] as! Int) < 30 }.count == summary.count(.checkinTooShort))
        let workouts = checkins.map { $0["workoutEntryId"] as! String }
        #expect(workouts.count - Set(workouts).count == summary.count(.checkinDuplicateWorkout))
        #expect(checkins.contains { ($0["workoutDurationMinutes"] as! Int) == 30 })
        #expect(try SampleData.text("checkins/checkins.ndjson").contains("\n\n"))
        let zone = ReportTimeZone(identifier: "America/Sao_Paulo")!
        let crossing = checkins.filter {
            let text = $0["createdAt"] as! String
            guard text.hasSuffix("Z"), case .success(let instant) = Timestamp.parse(text) else { return false }
            return zone.localDate(of: instant) != LocalDate.parse(String(text.prefix(10)))
        }
        #expect(!crossing.isEmpty, "some UTC timestamps fall on the previous local day")
        let members = try SampleData.ndjson("checkins/members.ndjson")
        #expect(members.contains { $0["leftAt"] is String })
    }

    @Test("health: negative steps and repeated days match the summary")
    func health() throws {
        let rows = try SampleData.csvRecords("health/activity.csv")
        #expect(rows.filter { $0["steps"]!.hasPrefix("-") }.count == summary.count(.healthNegativeSteps))
        var seen: Set<String> = []
        var repeats = 0
        for row in rows where !row["steps"]!.hasPrefix("-") {
            if !seen.insert(row["userId"]! + "|" + row["date"]!).inserted { repeats += 1 }
        }
        #expect(repeats == summary.count(.healthRepeatedDay))
        #expect(rows.contains { Int($0["steps"]!)! >= 10_000 })
        #expect(rows.allSatisfy { $0["activeCalories"]!.contains(".") && $0["walkingDistanceKm"]!.contains(".") })
    }

    @Test("subscriptions: every event kind, unknown names, products and connections")
    func subscriptions() throws {
        let events = try SampleData.csvRecords("subscriptions/events.csv.gz")
        let known: Set<String> = ["signup", "paywall_shown", "trial_started", "subscribed", "renewed", "upgraded",
                                  "downgraded", "cancelled", "expired", "refunded"]
        for app in ["FisioFlow", "LovU", "FypMatch"] {
            let names = Set(events.filter { $0["app"] == app }.map { $0["event"]! })
            #expect(names.isSuperset(of: known), "\(app) lacks \(known.subtracting(names))")
        }
        #expect(events.filter { !known.contains($0["event"]!) }.count == summary.count(.subscriptionUnknownEvent))
        let contexts = Set(events.filter { $0["event"] == "paywall_shown" }.map { $0["context"]! })
        #expect(contexts.isSuperset(of: ["patientLimitReached", "aiFeatureAccess", "advancedReports", "storageLimit", "therapistLimit"]))
        let products = try SampleData.csvRecords("subscriptions/products.csv")
        let fisio = Dictionary(uniqueKeysWithValues: products.filter { $0["app"] == "FisioFlow" }
            .map { ($0["plan"]! + "/" + $0["period"]!, $0["price"]!) })
        #expect(fisio["free/monthly"] == "0.00" && fisio["silver/monthly"] == "97.00")
        #expect(fisio["gold/monthly"] == "197.00" && fisio["platinum/monthly"] == "397.00")
        #expect(fisio["gold/yearly"] == "1970.00")
        // Free-to-paid conversion lands near the product target.
        let signups = Set(events.filter { $0["event"] == "signup" }.map { $0["userId"]! })
        let subscribers = Set(events.filter { $0["event"] == "subscribed" }.map { $0["userId"]! })
        let rate = Double(signups.intersection(subscribers).count) / Double(signups.count)
        #expect(rate > 0.12 && rate < 0.25, "conversion \(rate)")
        let connections = try SampleData.ndjson("subscriptions/connections.ndjson")
        #expect(connections.contains { $0["disconnectedAt"] is String })
    }
}
