import Foundation
import Testing
import TallyCore
@testable import TallyIngest

/// Reads `csv` as table `table` and decodes every record with `decode`,
/// returning each line's record or reject reason.
func decodeAll<R>(_ table: TableID, _ csv: String, _ decode: (FieldDecoder) throws(FieldError) -> R) throws -> [(line: Int, result: Result<R, FieldError>)] {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tally-dec-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("\(table.stem).csv")
    try Data(csv.utf8).write(to: url)
    let reader = try TableReader(url: url, fields: table.fields)
    var out: [(Int, Result<R, FieldError>)] = []
    try reader.read { event in
        switch event {
        case .record(let view):
            let f = FieldDecoder(view: view, fields: table.fields)
            out.append((view.line, Result { () throws(FieldError) -> R in try decode(f) }))
        case .malformed(let line, let reason):
            out.append((line, .failure(FieldError(reason))))
        }
    }
    return out
}

@Suite("Decoding the expenses/ tables")
struct ExpenseDecodersTests {
    @Test func expenseVersionsKeepTheirOwnErrors() throws {
        let csv = #"""
            id,couple_id,paid_by,amount,currency,date,description,tag,card_id,agreement_id,split_type,split,updated_at,deleted_at
            e1,c1,m1,100.01,BRL,2026-10-03,"Almoço, ""Pão de Açúcar""",food,,,percentage,m1:60;m2:40,2026-10-03T12:00:00-03:00,
            e2,c1,m1,"12,50",BRL,2026-10-03,x,food,,,,,2026-10-03T12:00:00Z,
            e3,c1,m1,,BRL,,,,,,,,2026-10-04T12:00:00Z,2026-10-04T12:00:00Z
            ,c1,m1,1,BRL,2026-10-03,,,,,,,2026-10-03T12:00:00Z,
            e5,c1,m1,1,BRL,2026-10-03,,,,,,,2026-10-03 12:00:00,
            e6,c1,m1,3500.0,JPY,2026-10-03,,,,,thirds,,2026-10-03T12:00:00Z,

            """#
        let rows = try decodeAll(.expenses, csv, ExpenseDecoders.expenseVersion)
        #expect(rows.map(\.line) == [2, 3, 4, 5, 6, 7])
        let e1 = try rows[0].result.get()
        #expect(e1.error == nil)
        #expect(e1.body?.amount == 10001)
        #expect(e1.body?.description == "Almoço, \"Pão de Açúcar\"")
        #expect(e1.body?.split.type == .percentage)
        let e2 = try rows[1].result.get()
        #expect(e2.error?.text.contains("'12,50' is not a decimal number") == true && e2.error?.code == .amountNotDecimal)
        #expect(e2.written?.amount == "12,50")
        let e3 = try rows[2].result.get()
        #expect(e3.deletedAt != nil && e3.body == nil && e3.error == nil)   // a deletion needs no other field
        #expect(throws: FieldError(RejectReason(code: .idEmpty, text: "id is empty"))) { try rows[3].result.get() }
        #expect(throws: FieldError(RejectReason(code: .timestampNoOffset, text: "updatedAt '2026-10-03 12:00:00' has no time zone offset (expected like 2026-10-03T21:15:00-03:00)"))) {
            try rows[4].result.get()
        }
        let e6 = try rows[5].result.get()
        #expect(e6.error == RejectReason(code: .amountTooManyDecimals, text: "amount: amount '3500.0' has more than 0 decimals, the most JPY allows"))
    }

    @Test func settlementsMustBePositive() throws {
        let rows = try decodeAll(.settlements, """
            id,coupleId,fromMember,toMember,amount,currency,date,note
            s1,c1,m1,m2,50.00,BRL,2026-10-10,pix
            s2,c1,m1,m2,-5.00,BRL,2026-10-10,
            s3,c1,m1,m2,5.00,XYZ,2026-10-10,
            """, ExpenseDecoders.settlement)
        #expect(try rows[0].result.get().amount == 5000)
        #expect(throws: FieldError(RejectReason(code: .valueNotPositive, text: "amount -5.00 is not positive"))) { try rows[1].result.get() }
        #expect(throws: FieldError(RejectReason(code: .currencyUnknown, text: "currency 'XYZ' is not an ISO 4217 currency code tally knows"))) { try rows[2].result.get() }
    }

    @Test func agreementsAndFx() throws {
        let agreements = try decodeAll(.agreements, """
            id,coupleId,description,amount,currency,paidBy,splitType,split,tag,dayOfMonth,startDate,endDate
            a1,c1,Aluguel,2500.00,BRL,m1,,,home,31,2026-01-15,
            a2,c1,Gym,100.00,BRL,m1,,,fit,32,2026-01-15,
            a3,c1,Gym,100.00,BRL,m1,,,fit,5,2026-03-01,2026-02-01
            """, ExpenseDecoders.agreement)
        let a1 = try agreements[0].result.get()
        #expect(a1.dayOfMonth == 31 && a1.endDate == nil && a1.split == .equal)
        #expect(throws: FieldError(RejectReason(code: .numberOutOfRange, text: "dayOfMonth 32 is outside 1...31"))) { try agreements[1].result.get() }
        #expect(throws: FieldError(RejectReason(code: .endBeforeStart, text: "endDate 2026-02-01 is before startDate 2026-03-01"))) { try agreements[2].result.get() }

        let fx = try decodeAll(.fx, """
            date,currency,base,rate
            2026-10-01,USD,BRL,5.4321
            2026-10-01,USD,BRL,0
            2026-10-01,BRL,BRL,1
            """, ExpenseDecoders.fx)
        #expect(try fx[0].result.get().rate.rate == Decimal10(mantissa: 54321, scale: 4))
        #expect(throws: FieldError(RejectReason(code: .valueNotPositive, text: "rate 0 is not positive"))) { try fx[1].result.get() }
        #expect(throws: FieldError(RejectReason(code: .fieldsEqual, text: "currency and base are both 'BRL'"))) { try fx[2].result.get() }
    }

    @Test func membersAndCouples() throws {
        let members = try decodeAll(.members, """
            id,coupleId,displayName,role,joinedAt
            m1,c1,Ana,admin,2026-01-01T00:00:00Z
            m2,c1,,member,
            m3,c1,Caio,owner,
            """, ExpenseDecoders.member)
        #expect(try members[1].result.get().displayName == "m2")
        #expect(throws: FieldError(RejectReason(code: .valueNotAllowed, text: "role 'owner' is not one of admin, member"))) { try members[2].result.get() }
        let couples = try decodeAll(.couples, "id,name,currency,createdAt\nc1,Ana & Bia,BRL,2026-01-01T00:00:00Z\n", ExpenseDecoders.couple)
        #expect(try couples[0].result.get().currency.code == "BRL")
    }
}

@Suite("Finding the tables of a data folder")
struct InputCatalogTests {
    @Test func tablesIgnoredFilesAndTwins() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tally-cat-\(UUID().uuidString)")
        let fm = FileManager.default
        for sub in ["expenses", "swipes", "misc", "health/u1"] {
            try fm.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        defer { try? fm.removeItem(at: dir) }
        for path in ["expenses/expenses.csv", "expenses/couples.CSV.gz", "expenses/notes.txt", "expenses/budget.csv",
                     "swipes/swipes.ndjson.gz", "swipes/users.jsonl", "misc/a.csv", "README.md", "expenses/.DS_Store"] {
            try Data().write(to: dir.appendingPathComponent(path))
        }
        let catalog = try InputCatalog.scan(dir)
        #expect(catalog.files.map(\.relativePath) == ["expenses/couples.CSV.gz", "expenses/expenses.csv",
                                                      "swipes/users.jsonl", "swipes/swipes.ndjson.gz"])
        #expect(catalog.files.map(\.table) == [.couples, .expenses, .swipeUsers, .swipes])
        #expect(Set(catalog.ignored.map(\.path)) == ["README.md", "misc/", "expenses/notes.txt", "expenses/budget.csv", "health/u1/"])

        try Data().write(to: dir.appendingPathComponent("expenses/expenses.ndjson"))
        #expect(throws: CatalogError.self) { try InputCatalog.scan(dir) }
        #expect(throws: CatalogError.self) { try InputCatalog.scan(dir.appendingPathComponent("nope")) }
    }
}
