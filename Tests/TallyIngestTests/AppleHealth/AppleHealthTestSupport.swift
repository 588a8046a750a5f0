import Foundation
import Testing
import ZIPFoundation
@testable import TallyIngest

/// The real Apple Health exports kept with the tests (`Tests/Fixtures/apple-health`, licences beside them).
let appleHealthFixtures: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/apple-health")

/// Every event of an export, with its summary.
func readAll(_ url: URL, display: String? = nil, limits: AppleHealthExportReader.Limits = .init())
    throws -> (records: [AppleHealthRecord], invalid: [(Int, String)], summary: AppleHealthExportReader.Summary) {
    var records: [AppleHealthRecord] = []
    var invalid: [(Int, String)] = []
    let summary = try AppleHealthExportReader(url: url, displayPath: display ?? url.lastPathComponent, limits: limits).read { event in
        switch event {
        case .record(let r): records.append(r)
        case .invalid(let line, let reason): invalid.append((line, reason.text))
        }
    }
    return (records, invalid, summary)
}

/// Writes a zip at `url` with `entries` (path, content), deflated.
func makeZip(_ url: URL, _ entries: [(String, [UInt8])]) throws {
    let archive = try Archive(url: url, accessMode: .create)
    for (path, bytes) in entries {
        let data = Data(bytes)
        try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count),
                             modificationDate: Date(timeIntervalSince1970: 1_700_000_000), compressionMethod: .deflate) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }
}

/// A small export with the given body lines between `<HealthData>` tags.
func export(_ body: String, dtd: String = "") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    \(dtd)<HealthData locale="pt_BR">
     <ExportDate value="2026-10-31 22:00:00 -0300"/>
    \(body)
    </HealthData>

    """
}

func record(_ type: String = "HKQuantityTypeIdentifierStepCount", source: String = "iPhone", unit: String = "count",
            start: String = "2026-10-10 10:00:00 -0300", value: String = "100") -> String {
    " <Record type=\"\(type)\" sourceName=\"\(source)\" unit=\"\(unit)\" startDate=\"\(start)\" endDate=\"\(start)\" value=\"\(value)\"/>"
}
