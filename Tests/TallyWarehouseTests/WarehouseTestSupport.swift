import Foundation

/// A warehouse path in a fresh temporary folder.
func temporaryWarehousePath() -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tally-wh-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent("tally.sqlite").path
}
