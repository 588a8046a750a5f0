import Foundation
import Testing
import TallyCore
@testable import TallyWarehouse

/// A reader limited to the derived tables its stage declared.
@Suite("Reads limited to the declared derived tables")
struct DeclaredReadsTests {
    @Test func aReadOfAnUndeclaredDerivedTableThrowsAndADeclaredOneReads() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        let reads = try warehouse.openReadConnection()
        defer { try? reads.close() }
        for connection in [warehouse as any WarehouseReading, reads] {
            #expect(throws: UndeclaredDerivedTable(table: .expenseWinners)) {
                try connection.read(declaring: [.checkinWinners]) { try $0.forEachCoupleKey { _ in } }
            }
            #expect(throws: UndeclaredDerivedTable(table: .checkinWinners)) {
                try connection.read(declaring: []) { try unattachedCheckinRejects($0) }
            }
            #expect(throws: UndeclaredDerivedTable(table: .swipeMatches)) {
                try connection.read(declaring: [.subscriptionEvents]) { try $0.matchInstants(from: Timestamp(microseconds: 0), to: Timestamp(microseconds: 1)) }
            }
            #expect(throws: UndeclaredDerivedTable(table: .subscriptionEvents)) {
                try connection.read(declaring: [.swipeMatches]) { try $0.forEachSubscriber { _, _, _, _ in } }
            }
            // Declared, or read with no declaration (outside a stage), the same reads succeed.
            #expect(try connection.read(declaring: [.expenseWinners]) { try unattachedRejects($0) }.isEmpty)
            #expect(try connection.read { try unattachedCheckinRejects($0) }.isEmpty)
            // Tables that are not derived need no declaration.
            #expect(try connection.read(declaring: []) { try $0.inputFiles() }.isEmpty)
        }
    }
}
