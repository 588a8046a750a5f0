import Foundation
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyPipeline

/// A data folder with one row for each kind of reject an input can make,
/// run by `tally run` (the warehouse) and by the dataflow: `rejects.csv`
/// gives every row its code, the same through both, and a couple's
/// unreadable expenses reach its statement through both.
///
/// The codes no small input makes are produced elsewhere: `couple_total_over_limit`
/// (`CoupleLimitsTests`), `file_refused` (`RefusalTests`); `unclassified`
/// only reads an earlier tally's warehouse (`RejectCodeTests`).
@Suite("Reject codes end to end", .serialized)
struct RejectCodesEndToEndTests {
    static let notFromThisInput: Set<RejectCode> = [.coupleTotalOverLimit, .fileRefused, .unclassified]

    static func data(in folder: URL) throws {
        func put(_ path: String, _ lines: [String]) throws {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        }
        let u = "2026-10-20T10:00:00Z"
        func expense(_ id: String, payer: String = "m1", amount: String = "10.00", currency: String = "BRL",
                     date: String = "2026-10-05", description: String = "Compra", splitType: String = "equal",
                     split: String = "", couple: String = "c1", updated: String = u) -> String {
            [id, couple, payer, amount, currency, date, description, "", "", "", splitType, split, updated, ""].joined(separator: ",")
        }
        try put("expenses/couples.csv", ["id,name,currency,createdAt", "c1,Ana & Bia,BRL,", "c2,Outro,XYZ,"])
        try put("expenses/members.csv", ["id,coupleId,displayName,role,joinedAt", "m1,c1,Ana,admin,", "m2,c1,Bia,member,",
                                         "m3,c1,Caio,owner,"])
        try put("expenses/fx.csv", ["date,currency,base,rate", "2026-10-01,BRL,BRL,1", "2026-10-01,EUR,BRL,0"])
        try put("expenses/expenses.csv", [
            "id,coupleId,paidBy,amount,currency,date,description,tag,cardId,agreementId,splitType,split,updatedAt,deletedAt",
            expense("e1", description: "Padaria"),
            expense("e2", amount: "\"73,73\"", date: "2026-10-12", description: "Mercado"),
            expense("e3", amount: "10.005"),
            expense("e4", amount: "99999999999999999.99"),
            expense("e5", date: "2026-10-32", description: "Feira"),
            expense("e6", splitType: "metade"),
            expense("e7", splitType: "percentage"),
            expense("e8", payer: "m9"),
            expense("e9", splitType: "percentage", split: "m1:60;m2:50"),
            expense("e10", amount: "3.00", splitType: "exact", split: "m1:1.00;m2:1.00"),
            expense("e11", splitType: "percentage", split: "m1:50;m9:50"),
            expense("e12", currency: "USD"),
            expense("e13", couple: "c9"),
            expense("e14", currency: "XYZ"),
            expense("e15", payer: ""),
            expense(""),
            expense("e16", updated: "2026-10-20T10:00:00"),
            expense("e17", updated: "2026-02-30T10:00:00Z"),
            expense("e18") + ",extra",
            "e19,c1,m1,10.00,BRL,2026-10-05,\"Pad\"aria,,,,equal,,\(u),",
        ])
        try put("expenses/settlements.csv", ["id,coupleId,fromMember,toMember,amount,currency,date,note",
                                             "s1,c1,m1,m2,-5.00,BRL,2026-10-05,", "s2,c1,m1,m9,5.00,BRL,2026-10-05,",
                                             "s3,c1,m1,m1,5.00,BRL,2026-10-05,"])
        try put("expenses/agreements.csv", ["id,coupleId,description,amount,currency,paidBy,splitType,split,tag,dayOfMonth,startDate,endDate",
                                            "a1,c1,Aluguel,100.00,BRL,m1,equal,,,32,2026-01-01,",
                                            "a2,c1,Curso,100.00,BRL,m1,equal,,,5,2026-03-01,2026-02-01",
                                            "a3,c1,Antigo,1.00,BRL,m1,equal,,,5,1900-01-01,"])
        func checkin(_ id: String, group: String = "g1", challenge: String = "ch1", user: String = "u1", photo: String = "\"https://p/1.jpg\"",
                     workout: String, minutes: Int = 45, at: String = "2026-10-05T10:00:00-03:00") -> String {
            "{\"id\":\"\(id)\",\"groupId\":\"\(group)\",\"challengeId\":\"\(challenge)\",\"userId\":\"\(user)\",\"displayName\":\"Ana\","
                + "\"userPhotoURL\":null,\"checkInPhotoURL\":\(photo),\"workoutEntryId\":\"\(workout)\","
                + "\"workoutDurationMinutes\":\(minutes),\"createdAt\":\"\(at)\"}"
        }
        try put("checkins/challenges.ndjson", ["{\"id\":\"ch1\",\"groupId\":\"g1\",\"name\":\"Outubro\",\"startDate\":\"2026-10-01\",\"endDate\":\"2026-10-31\"}"])
        try put("checkins/members.ndjson", ["{\"groupId\":\"g1\",\"userId\":\"u1\",\"joinedAt\":\"2026-09-01T00:00:00Z\"}"])
        try put("checkins/checkins.ndjson", [
            checkin("k1", workout: "w1"), checkin("k2", photo: "null", workout: "w2"), checkin("k3", workout: "w3", minutes: 10),
            checkin("k4", user: "u2", workout: "w4"), checkin("k5", workout: "w5", at: "2026-09-20T10:00:00-03:00"),
            checkin("k6", workout: "w1", at: "2026-10-06T10:00:00-03:00"), checkin("k7", group: "g2", workout: "w7"),
            checkin("k8", challenge: "ch9", workout: "w8"), checkin("k1", workout: "w9"),
        ])
        try put("health/activity.csv", ["userId,date,steps,activeCalories,walkingDistanceKm", "u1,2026-10-01,-5,1,1",
                                        "u1,2026-10-02,ten,1,1", "u1,2026-10-03,5000,100,3.5"])
        try put("subscriptions/products.csv", ["productId,app,plan,period,price,currency", "p1,App,basic,monthly,9.90,BRL"])
        try put("subscriptions/events.csv", ["id,app,userId,event,productId,context,timestamp",
                                             "v1,App,u1,subscribed,,,2026-10-01T00:00:00Z",
                                             "v2,App,u1,subscribed,p9,,2026-10-02T00:00:00Z",
                                             "v3,App,u1,billing_issue,p1,,2026-10-03T00:00:00Z",
                                             "v4,App,u1,signup,,,2026-10-01T00:00:00Z"])
        try put("subscriptions/connections.csv", ["userId,partnerId,connectedAt,disconnectedAt", "u1,u1,2026-09-01T00:00:00Z,"])
        // A record longer than the 1 MiB a run reads.
        try put("swipes/swipes.csv", ["id,fromUserId,toUserId,action,timestamp", "sw1,a,a,like,2026-10-02T12:00:00Z",
                                      "sw2,a,b,like,2026-10-02T12:00:00Z", "sw3,\(String(repeating: "x", count: 1_100_000)),b,like,2026-10-02T12:00:00Z"])
    }

    @Test("every kind an input makes has its code in rejects.csv, the same through the warehouse and the dataflow")
    func everyCode() throws {
        let work = try temporaryFolder("reject-codes")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try Self.data(in: data)
        let out = work.appendingPathComponent("out")
        let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
        _ = try runner.run(RunRequest(dataDirectory: data, outDirectory: out, period: YearMonth("2026-10")!, reproducible: true))
        let rejects = try String(contentsOf: out.appendingPathComponent("rejects.csv"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(rejects.first == "dataset,file,line,id,reason,reason_code")
        let codes = Set(rejects.dropFirst().map { line in RejectCode(stored: String(line.split(separator: ",").last!)) })
        #expect(!codes.contains(.unclassified))
        #expect(codes == Set(RejectCode.allCases).subtracting(Self.notFromThisInput),
                "missing: \(Set(RejectCode.allCases).subtracting(Self.notFromThisInput).subtracting(codes).map(\.rawValue).sorted())")
        #expect(rejects.contains("expenses,expenses/expenses.csv,3,e2,\"amount: amount '73,73' is not a decimal number like 1234.56 (no comma decimal, no thousands separator)\",amount_not_decimal"))

        // The couple's statement lists its unreadable expenses of the month, as written.
        let statement = try String(contentsOf: out.appendingPathComponent("statements/c1.txt"), encoding: .utf8)
        let listed = statement.split(separator: "\n").map(String.init)
        #expect(listed.contains { $0.hasPrefix("  12/10/2026 ") && $0.hasSuffix(" 73,73 BRL  Mercado: o valor não está escrito como 1234.56") })
        #expect(listed.contains { $0.hasPrefix("  data ilegível: 2026-10-32 ")
                                  && $0.hasSuffix(" 10.00 BRL  Feira: a data não existe ou não está como AAAA-MM-DD") })
        #expect(listed.contains { $0.hasSuffix(" 10.00 BRL  Compra: tipo de divisão desconhecido") })
        // Rows that could not be decoded at all, when they name the couple: a settlement, an expense without an id.
        #expect(listed.contains { $0.hasPrefix("  05/10/2026 ") && $0.hasSuffix(" -5.00 BRL  Acerto: o valor não é positivo") })
        #expect(listed.contains { $0.hasSuffix(" 10.00 BRL  Compra: a linha não tem id") })
        #expect(listed.contains { $0.hasSuffix(" 10.00 BRL  Compra: o horário não tem fuso") })
        #expect(listed.contains("Moeda: BRL · despesas: 1 · fora do extrato: 20"))
        // The board counts its participant's check-ins that did not count.
        let board = try String(contentsOf: out.appendingPathComponent("leaderboards/ch1.txt"), encoding: .utf8)
        #expect(board.contains("\n  Ana (u1): 5 — check-in de outro grupo (1), check-in sem foto (1), treino mais curto que o mínimo (1), "
                               + "fora das datas do desafio (1), treino já usado em outro check-in (1)\n"))
        #expect(board.contains("\n  Ana (u2): 1 — não era membro do grupo nesse momento (1)\n"))

        // The dataflow: the same rejects, statements and boards.
        let flowOut = work.appendingPathComponent("flow")
        let plan = try FlowPlan(data: data, config: TallyConfig(), period: YearMonth("2026-10")!)
        _ = try LocalSchedule(partitions: 3, seed: 7, throughLines: true).run(plan, outDirectory: flowOut, reproducible: true)
        for name in ["rejects.csv", "statements/c1.txt", "leaderboards/ch1.txt"] {
            #expect(try Data(contentsOf: flowOut.appendingPathComponent(name)) == Data(contentsOf: out.appendingPathComponent(name)),
                    "\(name) differs")
        }
    }
}
