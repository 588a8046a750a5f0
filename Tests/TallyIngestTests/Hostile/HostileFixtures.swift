import Foundation
import TallyIngest
import Testing

/// The committed hostile fixtures (`Tests/Fixtures/hostile/`), and how a test
/// reads one to the end.
enum HostileFixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/hostile")

    /// `Tests/Fixtures/hostile/readers/<name>`.
    static func reader(_ name: String) -> URL { root.appendingPathComponent("readers/\(name)") }

    /// Every event of `url`, read with `fields`: records as (line, id field),
    /// malformed records as (line, reason).
    static func events(_ url: URL, fields: [String] = TableID.expenses.fields,
                       maxRecordBytes: Int = 64 << 20) throws -> [Outcome] {
        let reader = try TableReader(url: url, fields: fields, maxRecordBytes: maxRecordBytes)
        var out: [Outcome] = []
        try reader.read { event in
            switch event {
            case .record(let view): out.append(.record(line: view.line, id: view.string(0) ?? ""))
            case .malformed(let line, let reason): out.append(.malformed(line: line, reason: reason.text))
            }
        }
        #expect(reader.recordsRead == out.count, "every record read is delivered once")
        return out
    }

    /// What became of one record.
    enum Outcome: Equatable, CustomStringConvertible {
        case record(line: Int, id: String)
        case malformed(line: Int, reason: String)

        var line: Int {
            switch self {
            case .record(let line, _), .malformed(let line, _): line
            }
        }
        var reason: String? {
            if case .malformed(_, let reason) = self { return reason }
            return nil
        }
        var description: String {
            switch self {
            case .record(let line, let id): "record(line \(line), id \(id))"
            case .malformed(let line, let reason): "malformed(line \(line): \(reason))"
            }
        }
    }
}
