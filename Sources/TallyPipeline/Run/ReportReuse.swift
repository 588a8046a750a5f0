import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TallyCore
import TallyWarehouse
import TallyIngest

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
        let hasher = SHA256Hasher()
        func add(_ text: String) { hasher.update(text + "\u{1}") }
        add("tally \(TallyRunner.version)")
        add(buildDigest)
        add(String(reflecting: config))
        add("period \(period) as-of \(request.asOf?.description ?? "-")")
        add(try warehouse.read { try $0.reportInputsDigest() })
        // The statements compare their openings with the month before's
        // published closings: a new publication of that month is a new input.
        add("month before published by run \(try warehouse.lastRunSeq(period: period.adding(months: -1)).map(String.init) ?? "-")")
        for file in ignored { add("ignored \(file.path): \(file.why)") }
        return hasher.hexDigest()
    }

    /// The digest of the files in `folder` (relative path, size, modification
    /// time), leaving out run.json, which every run rewrites, and the warehouse.
    ///
    /// Each name gets one `lstat`: an out folder holds a file per couple, and
    /// `FileManager.attributesOfItem` (which also looks up the owner's names)
    /// cost many times that per file.
    static func folderDigest(_ folder: URL, warehousePath: String) -> String {
        let root = folder.standardizedFileURL.path
        let warehouse = URL(fileURLWithPath: warehousePath).standardizedFileURL.path
        var entries: [String] = []
        func walk(_ relative: String) {
            let directory = relative.isEmpty ? root : root + "/" + relative
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
            for name in names {
                let entry = relative.isEmpty ? name : relative + "/" + name
                let path = root + "/" + entry
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    walk(entry)
                case S_IFREG where entry != "run.json" && !path.hasPrefix(warehouse):
                    entries.append("\(entry)\u{1}\(info.st_size)\u{1}\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)")
                default:
                    continue
                }
            }
        }
        walk("")
        let hasher = SHA256Hasher()
        for entry in entries.sorted() { hasher.update(entry + "\n") }
        return hasher.hexDigest()
    }

    /// The running executable's SHA-256, read once per process: a rebuilt
    /// tally may compute reports differently.
    static let buildDigest = executableDigest()

    private static func executableDigest() -> String {
        let path = Bundle.main.executablePath ?? CommandLine.arguments[0]
        guard let handle = FileHandle(forReadingAtPath: path) else { return "unknown build" }
        defer { try? handle.close() }
        let hasher = SHA256Hasher()
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(chunk) }
        return hasher.hexDigest()
    }
}
