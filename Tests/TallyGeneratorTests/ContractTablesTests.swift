import Foundation
import TallyCore
import Testing
@testable import TallyGenerator

@Suite("Every contract table")
struct ContractTablesTests {
    /// CSV tables with the contract's fields (camelCase; the file may spell them snake_case).
    static let csvTables: [(String, [String])] = [
        ("expenses/couples.csv", ["id", "name", "currency", "createdAt"]),
        ("expenses/members.csv", ["id", "coupleId", "displayName", "role", "joinedAt"]),
        ("expenses/expenses.csv", ["id", "coupleId", "paidBy", "amount", "currency", "date", "description", "tag", "cardId",
                                   "agreementId", "splitType", "split", "updatedAt", "deletedAt"]),
        ("expenses/settlements.csv", ["id", "coupleId", "fromMember", "toMember", "amount", "currency", "date", "note"]),
        ("expenses/agreements.csv", ["id", "coupleId", "description", "amount", "currency", "paidBy", "splitType", "split",
                                     "tag", "dayOfMonth", "startDate", "endDate"]),
        ("expenses/cards.csv", ["id", "coupleId", "ownerId", "label", "kind"]),
        ("expenses/fx.csv", ["date", "currency", "base", "rate"]),
        ("health/activity.csv", ["userId", "date", "steps", "activeCalories", "walkingDistanceKm"]),
        ("subscriptions/products.csv", ["productId", "app", "plan", "period", "price", "currency"]),
        ("subscriptions/events.csv.gz", ["id", "app", "userId", "event", "productId", "context", "timestamp"]),
    ]

    /// NDJSON tables with the fields every object carries (nullable ones may be absent).
    static let jsonTables: [(String, [String])] = [
        ("swipes/users.jsonl", ["id", "createdAt", "gender", "city", "subscription"]),
        ("swipes/swipes.ndjson.gz", ["id", "fromUserId", "toUserId", "action", "timestamp"]),
        ("checkins/challenges.ndjson", ["id", "groupId", "name", "startDate", "endDate"]),
        ("checkins/members.ndjson", ["groupId", "userId", "joinedAt"]),
        ("checkins/checkins.ndjson", ["id", "groupId", "challengeId", "userId", "displayName", "userPhotoURL",
                                      "checkInPhotoURL", "workoutEntryId", "workoutDurationMinutes", "createdAt"]),
        ("subscriptions/connections.ndjson", ["userId", "partnerId", "connectedAt"]),
    ]

    @Test("CSV tables have the contract's header fields", arguments: csvTables.map(\.0))
    func csvHeader(path: String) throws {
        let expected = Self.csvTables.first { $0.0 == path }!.1
        let rows = try SampleData.csv(path)
        let header = rows[0].map(SampleData.camelCase)
        for field in expected { #expect(header.contains(field), "\(path) lacks \(field)") }
        #expect(rows.count > 1)
        let file = try #require(SampleData.shared.summary.file(path))
        #expect(file.records == rows.count - 1, "records in the summary match the CSV rows of \(path)")
    }

    @Test("NDJSON tables carry the contract's fields", arguments: jsonTables.map(\.0))
    func jsonFields(path: String) throws {
        let expected = Self.jsonTables.first { $0.0 == path }!.1
        let objects = try SampleData.ndjson(path)
        #expect(!objects.isEmpty)
        for object in objects {
            for field in expected { #expect(object.keys.contains(field), "\(path) object lacks \(field)") }
        }
        let file = try #require(SampleData.shared.summary.file(path))
        #expect(file.records == objects.count)
    }

    @Test("every file of the summary is on disk with its size, and nothing else is")
    func summaryMatchesDisk() throws {
        let summary = SampleData.shared.summary
        let root = SampleData.shared.directory
        var onDisk: Set<String> = []
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])!
        for case let url as URL in enumerator where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            onDisk.insert(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
        }
        #expect(onDisk == Set(summary.files.map(\.path)))
        for file in summary.files {
            let size = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(file.path).path)[.size] as! Int
            #expect(Int64(size) == file.bytes, "\(file.path)")
        }
        let tables = Set(Self.csvTables.map(\.0) + Self.jsonTables.map(\.0))
        #expect(tables.isSubset(of: onDisk))
        #expect(summary.files.filter { $0.path.hasSuffix("/export.xml") }.count == 2)
        #expect(summary.files.filter { $0.path.hasSuffix("/export.zip") }.count == 1)
    }

    @Test("the small scale stays small: under 5 MB, with the sizes the brief asks for")
    func smallScaleSize() throws {
        let summary = SampleData.shared.summary
        #expect(summary.totalBytes < 5_000_000)
        func records(_ path: String) -> Int { summary.file(path)?.records ?? 0 }
        #expect(records("expenses/couples.csv") == 20)
        #expect((1_300...1_800).contains(records("expenses/expenses.csv")))
        #expect(records("swipes/users.jsonl") == 300)
        #expect((13_000...17_000).contains(records("swipes/swipes.ndjson.gz")))
        #expect((3...4).contains(records("checkins/challenges.ndjson")))
        #expect((30...50).contains(records("checkins/members.ndjson")))
        #expect((1_200...1_800).contains(records("checkins/checkins.ndjson")))
        let healthUsers = Set(try SampleData.csvRecords("health/activity.csv").map { $0["userId"]! })
        #expect(healthUsers.count == 30)
        let signups = try SampleData.csvRecords("subscriptions/events.csv.gz").filter { $0["event"] == "signup" }
        #expect(signups.count == 600)
        #expect(summary.firstMonth == YearMonth(year: 2026, month: 3)!)
    }
}
