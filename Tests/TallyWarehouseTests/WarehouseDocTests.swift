import Foundation
import GRDB
import Testing
@testable import TallyWarehouse

/// `docs/warehouse.md` shows the schema of a new warehouse as
/// `sqlite3 tally.sqlite .schema` prints it: its ```sql blocks hold every
/// statement once, and nothing else.
@Suite("docs/warehouse.md")
struct WarehouseDocTests {
    private static let doc = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/warehouse.md")

    /// The statements of the document's ```sql blocks: a statement ends on a
    /// line that ends with `;`. The line `/* name(columns) */;` that `sqlite3`
    /// prints under a view is not stored: it is read as the `;` alone.
    static func documentedStatements(_ markdown: String) -> [String] {
        var statements: [String] = []
        var current: [String] = []
        var inSQL = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if !inSQL {
                inSQL = line == "```sql"
            } else if line == "```" {
                inSQL = false
                if !current.isEmpty { statements.append(current.joined(separator: "\n")); current = [] }
            } else if !current.isEmpty && line.hasPrefix("/* ") && line.hasSuffix(" */;") {
                statements.append(current.joined(separator: "\n") + ";"); current = []
            } else if !(current.isEmpty && line.isEmpty) {
                current.append(String(line))
                if line.hasSuffix(";") { statements.append(current.joined(separator: "\n")); current = [] }
            }
        }
        return statements
    }

    @Test("the statements are cut at each line ending in ';', across blocks")
    func parsing() {
        let markdown = "x\n```sql\nCREATE TABLE a (\n  b\n);\n\nCREATE INDEX c ON a(b);\n```\n```text\nno;\n```\n```sql\nCREATE VIEW v AS\nSELECT 1\n/* v(1) */;\n```\n"
        #expect(Self.documentedStatements(markdown) == ["CREATE TABLE a (\n  b\n);", "CREATE INDEX c ON a(b);", "CREATE VIEW v AS\nSELECT 1;"])
    }

    @Test("every table, index and view of a new warehouse is in docs/warehouse.md exactly as stored, and nothing more")
    func schemaMatchesTheDocument() throws {
        let markdown = try String(contentsOf: Self.doc, encoding: .utf8)
        let documented = Self.documentedStatements(markdown)
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        // What `.schema` prints: each stored statement (not SQLite's own objects), with a `;`.
        let stored = try warehouse.read { reader in
            try String.fetchAll(reader.db, sql: """
                SELECT sql || ';' FROM sqlite_master WHERE sql NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid
                """)
        }
        #expect(documented.count == Set(documented).count, "a statement is shown twice")
        for statement in stored where !documented.contains(statement) {
            Issue.record("docs/warehouse.md lacks (or shows differently):\n\(statement)")
        }
        for statement in documented where !stored.contains(statement) {
            Issue.record("docs/warehouse.md shows what a new warehouse does not have:\n\(statement)")
        }
    }
}
