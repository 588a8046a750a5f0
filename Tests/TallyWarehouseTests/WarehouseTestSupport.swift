import Foundation
@testable import TallyIngest

/// A warehouse path in a fresh temporary folder.
func temporaryWarehousePath() -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tally-wh-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent("tally.sqlite").path
}

/// An input file of `table` named `name` (under a data folder that need not exist).
func file(_ table: TableID, _ name: String) -> InputFile {
    InputFile(url: URL(fileURLWithPath: "/data/\(name)"), relativePath: name, kind: .table(table))
}
