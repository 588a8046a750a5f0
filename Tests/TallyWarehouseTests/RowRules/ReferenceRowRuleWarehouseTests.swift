import Foundation
import GRDB
import Testing
import TallyCore
@testable import TallyIngest
@testable import TallyWarehouse

/// The keyed rows the warehouse's upsert keeps, refuses and replaces (over
/// several ingests) are the rows `ReferenceRowRule` counts, rejects and
/// supersedes in the same groups (identical rows by their stored values),
/// and each file's superseded count is the rule's.
@Suite("Keyed rows follow ReferenceRowRule")
struct ReferenceRowRuleWarehouseTests {
    struct Generated { var key: String; var file: Int; var line: Int64; var price: Int64; var stored: Bool }

    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func theUpsertAgreesWithTheRule(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        let brl = Currency(code: "BRL")!
        var rows: [Generated] = []
        var fileIds: [Int64] = []
        let fileCount = Int.random(in: 2...5, using: &rng)
        while fileIds.count < fileCount {
            // Files loaded in one ingest or over several: a replaced row's count stays with its file.
            let files = Int.random(in: 1...(fileCount - fileIds.count), using: &rng)
            try warehouse.ingest { s in
                for _ in 0..<files {
                    let n = fileIds.count
                    let f = try s.beginFile(file(.products, "f\(n)/products.csv"), absolutePath: "/f\(n)/products.csv",
                                            bytes: 1, sha256: "s\(n)")
                    fileIds.append(f)
                    var read = 0, rejected = 0
                    for line in Int64(2)..<Int64.random(in: 3...9, using: &rng) {
                        let key = GeneratedLog.keys.randomElement(using: &rng)!
                        // Two prices: a key's rows of two files are often identical.
                        let price = Int64.random(in: 1...2, using: &rng)
                        let stored = try s.insert(ProductRecord(entry: .init(productId: key, app: "LovU", plan: "premium", yearly: false,
                                                                             price: price, currency: brl)),
                                                  file: f, line: Int(line))
                        rows.append(Generated(key: key, file: n, line: line, price: price, stored: stored))
                        read += 1
                        if !stored { rejected += 1 }
                    }
                    try s.finishFile(f, read: read, rejected: rejected, superseded: 0, unknownFields: [])
                }
            }
        }

        var counted: [[UInt8]: [Int64]] = [:]
        var supersededPerFile: [Int64: Int] = [:]
        for group in KeyGroups.split(rows, key: { Array($0.key.utf8) }) {
            let verdicts = ReferenceRowRule(key: "productId").verdicts(group.enumerated().map { i, r in
                ReferenceRowRule.Row(file: Int64(r.file), loadSeq: Int64(r.file), line: r.line, row: Int64(i), content: r.price)
            })
            for (row, verdict) in zip(group, verdicts) {
                switch verdict {
                case .counts:
                    #expect(row.stored, "seed \(seed): \(row.key) at \(row.file):\(row.line) counts but was refused")
                    counted[Array(row.key.utf8)] = [row.price, fileIds[row.file], row.line]
                case .superseded:
                    #expect(row.stored, "seed \(seed)")
                    supersededPerFile[fileIds[row.file], default: 0] += 1
                case .rejected:
                    #expect(!row.stored, "seed \(seed): \(row.key) at \(row.file):\(row.line) is a repeat but was stored")
                }
            }
        }
        try warehouse.read { r in
            var held: [[UInt8]: [Int64]] = [:]
            for row in try Row.fetchAll(r.db, sql: "SELECT CAST(product_id AS BLOB), price, file_id, line FROM product") {
                held[[UInt8](row[0] as Data)] = [row[1], row[2], row[3]]
            }
            #expect(held == counted, "seed \(seed)")
            let counts = try GeneratedLog.counts(r.db, column: "rows_superseded")
            #expect(counts.filter { $0.value > 0 } == supersededPerFile.filter { $0.value > 0 }, "seed \(seed)")
        }
    }
}
