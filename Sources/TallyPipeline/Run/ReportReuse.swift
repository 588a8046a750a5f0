import Crypto
import Foundation
import TallyCore
import TallyWarehouse

/// Decides whether a run may keep the reports already in its out folder.
///
/// Reports are a pure function of the warehouse's inputs, the leaderboard
/// history, the configuration, the period, the as-of day and the tally
/// build. After a run publishes, the digest of all of these (the *key*) and
/// of the files it left in the out folder are recorded in the warehouse. A
/// later run whose key and folder digest are the same would write the same
/// bytes, so it rewrites only run.json (this run's timings): a rerun on
/// unchanged inputs then costs the sha256 of the inputs, not the reports.
/// Any difference, including a report file edited, added or deleted by
/// hand, rebuilds every report.
struct ReportReuse {
    let key: String
    let files: String

    /// The digest of what the reports of `request` depend on, as the warehouse holds it now.
    static func key(_ request: RunRequest, config: TallyConfig, period: YearMonth, warehouse: Warehouse,
                    ignored: [RunManifest.Ignored]) throws -> String {
        var hasher = SHA256()
        func add(_ text: String) { hasher.update(data: Data((text + "\u{1}").utf8)) }
        add("tally \(TallyRunner.version)")
        add(executableDigest())
        add(String(reflecting: config))
        add("period \(period) as-of \(request.asOf?.description ?? "-")")
        add(try warehouse.read { try $0.reportInputsDigest() })
        for file in ignored { add("ignored \(file.path): \(file.why)") }
        return hex(hasher.finalize())
    }

    /// The digest of the files in `folder` (relative path, size, modification
    /// time), leaving out run.json, which every run rewrites, and the warehouse.
    static func folderDigest(_ folder: URL, warehousePath: String) -> String {
        let fm = FileManager.default
        let root = folder.standardizedFileURL.path
        let warehouse = URL(fileURLWithPath: warehousePath).standardizedFileURL.path
        var entries: [String] = []
        if let walker = fm.enumerator(atPath: root) {
            while let relative = walker.nextObject() as? String {
                let path = root + "/" + relative
                guard relative != "run.json", !path.hasPrefix(warehouse),
                      let attributes = try? fm.attributesOfItem(atPath: path),
                      attributes[.type] as? FileAttributeType == .typeRegular else { continue }
                let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
                let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                entries.append("\(relative)\u{1}\(size)\u{1}\(modified)")
            }
        }
        var hasher = SHA256()
        for entry in entries.sorted() { hasher.update(data: Data((entry + "\n").utf8)) }
        return hex(hasher.finalize())
    }

    /// The running executable's SHA-256: a rebuilt tally may compute reports differently.
    static func executableDigest() -> String {
        let path = Bundle.main.executablePath ?? CommandLine.arguments[0]
        guard let handle = FileHandle(forReadingAtPath: path) else { return "unknown build" }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        return hex(hasher.finalize())
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
