import Foundation
import Testing
@testable import TallyIngest

/// A CSV header that makes a whole file unusable is judged once,
/// as a file, with a reason a person can act on.
@Suite("Header refusals: files unusable as a whole")
struct HeaderRefusalTests {
    func refusal(_ bytes: [UInt8], table: TableID = .couples, name: String = "couples.csv") throws -> String? {
        let dir = try TemporaryDirectory()
        let reader = try TableReader(url: try dir.file(name, bytes: bytes), fields: table.fields)
        return reader.headerRefusal(required: table.requiredFields)
    }

    func refusal(_ text: String, table: TableID = .couples, name: String = "couples.csv") throws -> String? {
        try refusal(Array(text.utf8), table: table, name: name)
    }

    @Test("';' as Excel writes CSV in pt-BR, with a BOM")
    func semicolons() throws {
        #expect(try refusal("\u{FEFF}id;name;currency;created_at\ncpl-1;Ana & Bia;BRL;2026-01-01T00:00:00Z\n")
                == "the header is separated by ';' as Excel writes CSV in some locales; tally reads ',': export as CSV UTF-8 (comma delimited)")
    }

    @Test("tabs")
    func tabs() throws {
        #expect(try refusal("id\tname\tcurrency\ncpl-1\tA\tBRL\n")
                == "the header is separated by tabs (tab-separated text); tally reads ',': export as CSV UTF-8 (comma delimited)")
    }

    @Test("a required column missing: named once, with the header")
    func requiredColumnMissing() throws {
        #expect(try refusal("id,couple_id,paid_by,currency,date,updated_at\n", table: .expenses, name: "expenses.csv")
                == "no column 'amount': every row needs it (the header has id, couple_id, paid_by, currency, date, updated_at)")
        #expect(try refusal("id,name\n") == "no column 'currency': every row needs it (the header has id, name)")
    }

    @Test("a header that matches no column of the table")
    func noColumnMatches() throws {
        #expect(try refusal("userId,date,steps\n")
                == "the header (userId, date, steps) matches no column of this table; expected id, name, currency, createdAt")
    }

    @Test("optional columns may be missing; a usable header is not refused")
    func usableHeaders() throws {
        #expect(try refusal("id,currency\ncpl-1,BRL\n") == nil)
        #expect(try refusal("ID,Currency,Name,created_at,extra\n") == nil)
        #expect(try refusal("\n\n") == "the file is empty, without even a header row: was the export cut short?")
        #expect(try refusal("") == "the file is empty, without even a header row: was the export cut short?")
        #expect(try refusal("", name: "couples.ndjson") == nil)
        #expect(try refusal("{\"id\":\"x\"}\n", name: "couples.ndjson") == nil)
    }

    @Test("UTF-16 (Excel's Unicode Text) is refused before any row")
    func utf16() throws {
        let text = "id,name,currency\n"
        let le: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let dir = try TemporaryDirectory()
        #expect(throws: ReaderError.self) { _ = try TableReader(url: try dir.file("couples.csv", bytes: le), fields: TableID.couples.fields) }
        let file = try dir.file("couples.csv", bytes: le)
        do { _ = try TableReader(url: file, fields: TableID.couples.fields) } catch {
            #expect(error.kind == .badHeader)
            #expect(error.reason.hasPrefix("the file is UTF-16 text"))
        }
    }

    @Test("a header that is not UTF-8 (Windows-1252) says to save as CSV UTF-8")
    func latin1Header() throws {
        let dir = try TemporaryDirectory()
        let bytes: [UInt8] = Array("id,name,currency,descri".utf8) + [0xE7, 0xE3] + Array("o\n".utf8)
        let file = try dir.file("couples.csv", bytes: bytes)
        do {
            _ = try TableReader(url: file, fields: TableID.couples.fields)
            Issue.record("a Windows-1252 header was read")
        } catch {
            #expect(error.reason == "the header row is not valid UTF-8 (byte 24): save the file as CSV UTF-8")
        }
    }

    @Test("every required field is a field of its table")
    func requiredFieldsAreFields() {
        for table in TableID.allCases {
            #expect(Set(table.requiredFields).isSubset(of: Set(table.fields)), "\(table)")
            #expect(!table.requiredFields.isEmpty)
        }
    }
}
