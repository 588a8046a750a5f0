import Foundation
import GRDB
import Testing
@testable import TallyPipeline

/// A second month's folder under `work` holding `files` (path → lines);
/// `sample-data/`'s `tally.yml` comes along. For the tests of results kept
/// between runs (`KeptBoardsTests`, `KeptSubscribersTests`).
func secondMonthFolder(_ work: URL, _ files: [String: [String]]) throws -> URL {
    let fm = FileManager.default
    let folder = work.appendingPathComponent("month-two")
    try fm.createDirectory(at: folder, withIntermediateDirectories: true)
    try fm.copyItem(at: repositoryRoot.appendingPathComponent("sample-data/tally.yml"), to: folder.appendingPathComponent("tally.yml"))
    for (path, lines) in files {
        let file = folder.appendingPathComponent(path)
        try fm.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
    }
    return folder
}

/// `sample-data/`'s lines of `path`.
func sampleLines(_ path: String) throws -> [String] {
    try String(contentsOf: repositoryRoot.appendingPathComponent("sample-data/\(path)"), encoding: .utf8)
        .split(separator: "\n").map(String.init)
}

/// Marks every result kept in the warehouse at `db` as kept by another build
/// of tally (another version and executable digest in its set's settings),
/// as a warehouse reads after an upgrade; returns how many sets it marked.
@discardableResult
func keptByAnotherBuild(_ db: URL) throws -> Int {
    try DatabaseQueue(path: db.path).write { db in
        try db.execute(sql: "UPDATE key_state_set SET settings = replace(settings, ?, ?)", arguments: [
            "tally \(TallyRunner.version) \(ReportReuse.buildDigest) ",
            "tally 0.0.1 \(String(repeating: "0", count: ReportReuse.buildDigest.count)) ",
        ])
        let marked = db.changesCount
        #expect(marked > 0, "the warehouse keeps results under this build's settings")
        return marked
    }
}
