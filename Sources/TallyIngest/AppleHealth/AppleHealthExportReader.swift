import Foundation
import TallyCore
import ZIPFoundation

/// Streams an Apple Health export (`export.xml`, or the `export.zip` the
/// Health app shares) and hands out its step-count, active-energy and
/// walking-running-distance records, converted to count, kcal and km.
///
/// Both layouts Apple has written are read: today's (`sourceName=`, dates
/// like `2026-10-03 21:15:00 -0300`) and iOS 8's (`source=`, dates like
/// `20261003211500-0300`).
///
/// Memory stays flat whatever the size: the XML is read (or inflated from
/// the zip entry) in 1 MiB chunks through a ``FlatXMLScanner``; nothing is
/// extracted to disk. Only top-level records count: the copies of records
/// nested in a `<Correlation>` are skipped, as the export's own DTD notes.
public struct AppleHealthExportReader {
    /// Bounds on what an export may make tally do.
    public struct Limits: Sendable {
        /// The most uncompressed bytes read from a zip entry.
        public var maxUncompressedBytes: Int64
        /// The most uncompressed bytes per compressed byte of a zip entry
        /// (XML deflates about 10–30×; a zip bomb reaches ~1000×).
        public var maxCompressionRatio: Int64
        /// The longest tag accepted.
        public var maxTagBytes: Int

        public init(maxUncompressedBytes: Int64 = 64 << 30, maxCompressionRatio: Int64 = 200, maxTagBytes: Int = 1 << 20) {
            self.maxUncompressedBytes = maxUncompressedBytes
            self.maxCompressionRatio = maxCompressionRatio
            self.maxTagBytes = maxTagBytes
        }
    }

    public let url: URL
    /// The path shown in messages (`health/u1/export.zip`).
    public let displayPath: String
    public let limits: Limits
    static let chunkSize = 1 << 20

    public init(url: URL, displayPath: String, limits: Limits = Limits()) {
        self.url = url
        self.displayPath = displayPath
        self.limits = limits
    }

    /// What a read found.
    public struct Summary: Sendable, Equatable {
        /// Records of the three quantities (valid or not).
        public var records = 0
        public var invalid = 0
        /// The XML entry read from a zip, if any.
        public var entry: String?
        /// XML bytes scanned.
        public var xmlBytes: Int64 = 0
    }

    /// Reads the export, calling `body` for each record of a quantity tally
    /// reads, and `progress` with the input bytes consumed now and then.
    /// - Throws: ``AppleHealthExportError`` naming the file (and line) when it
    ///   cannot be read, or whatever `body` throws.
    public func read(progress: (Int64) -> Void = { _ in }, _ body: (AppleHealthEvent) throws -> Void) throws -> Summary {
        var summary = Summary()
        var entry: String?
        let scanner = FlatXMLScanner(maxConstructBytes: limits.maxTagBytes)
        var sawRoot = false
        let onTag: (FlatXMLScanner.StartTag) throws -> Void = { tag in
            if tag.depth == 0 {
                guard tag.isNamed("HealthData") else {
                    throw FlatXMLError(line: tag.line, reason: "the root element is <\(tag.nameString)>, not <HealthData> (not an Apple Health export)")
                }
                sawRoot = true
                return
            }
            guard tag.depth == 1, tag.isNamed("Record"), let event = Self.event(tag) else { return }
            summary.records += 1
            if case .invalid = event { summary.invalid += 1 }
            try body(event)
        }
        do {
            if url.pathExtension.lowercased() == "zip" {
                try readZip(scanner, progress: progress, entry: { entry = $0 }, onTag)
            } else {
                try readFile(scanner, progress: progress, onTag)
            }
            try scanner.finish()
            summary.xmlBytes = scanner.bytesConsumed
            summary.entry = entry
        } catch let error as FlatXMLError {
            throw AppleHealthExportError("\(displayPath)\(entry.map { " (\($0))" } ?? ""), line \(error.line): \(error.reason)")
        } catch let error as AppleHealthExportError {
            throw AppleHealthExportError("\(displayPath): \(error.description)")
        }
        guard sawRoot else { throw AppleHealthExportError("\(displayPath): no <HealthData> element (not an Apple Health export)") }
        return summary
    }

    private func readFile(_ scanner: FlatXMLScanner, progress: (Int64) -> Void,
                          _ onTag: (FlatXMLScanner.StartTag) throws -> Void) throws {
        guard let file = fopen(url.path, "rb") else {
            throw AppleHealthExportError("cannot open: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 1)
        defer { chunk.deallocate() }
        var total: Int64 = 0
        while true {
            let count = fread(chunk.baseAddress, 1, Self.chunkSize, file)
            if count == 0 {
                if ferror(file) != 0 { throw AppleHealthExportError("read error: \(String(cString: strerror(errno)))") }
                break
            }
            try scanner.feed(UnsafeRawBufferPointer(rebasing: chunk[0..<count]), onTag)
            total += Int64(count)
            progress(total)
        }
    }

    private func readZip(_ scanner: FlatXMLScanner, progress: (Int64) -> Void, entry chosen: (String) -> Void,
                         _ onTag: (FlatXMLScanner.StartTag) throws -> Void) throws {
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            throw AppleHealthExportError("not a readable zip file (\(Self.zipWords(error))): export it again from the Health app")
        }
        let entries = Array(archive).filter { $0.type == .file }
        let path = try AppleHealthZipEntries.choose(entries.map(\.path)).get()
        guard let entry = entries.first(where: { $0.path == path }) else { throw AppleHealthExportError("zip entry \(path) vanished") }
        chosen(path)
        let compressed = Int64(clamping: entry.compressedSize)
        let allowed = min(limits.maxUncompressedBytes,
                          max(compressed, 1 << 16).multipliedReportingOverflow(by: limits.maxCompressionRatio).partialValue)
        let declared = Int64(clamping: entry.uncompressedSize)
        if declared > allowed {
            throw AppleHealthExportError(Self.bombMessage(path, compressed: compressed, size: declared, allowed: allowed, declared: true))
        }
        var inflated: Int64 = 0
        do {
            _ = try archive.extract(entry, bufferSize: Self.chunkSize, skipCRC32: false) { data in
                inflated += Int64(data.count)
                // The header's size can lie: count what actually inflates.
                if inflated > allowed {
                    throw AppleHealthExportError(Self.bombMessage(path, compressed: compressed, size: inflated, allowed: allowed, declared: false))
                }
                try data.withUnsafeBytes { try scanner.feed($0, onTag) }
                progress(declared > 0 ? Int64(Double(compressed) * Double(min(inflated, declared)) / Double(declared)) : 0)
            }
        } catch let error as AppleHealthExportError {
            throw error
        } catch let error as FlatXMLError {
            throw error
        } catch {
            throw AppleHealthExportError("zip entry \(path) cannot be inflated (\(Self.zipWords(error))): export it again from the Health app")
        }
    }

    static func bombMessage(_ path: String, compressed: Int64, size: Int64, allowed: Int64, declared: Bool) -> String {
        "zip entry \(path) \(declared ? "declares" : "inflates to more than") \(size) bytes from \(compressed) compressed, over the limit of \(allowed) bytes (a zip bomb?); not read"
    }

    /// The event for a `<Record>` start tag, or nil when its type is not one tally reads.
    static func event(_ tag: FlatXMLScanner.StartTag) -> AppleHealthEvent? {
        guard let type = tag.raw("type") else { return nil }
        let quantity: HealthQuantity
        if equal(type, HealthQuantity.steps.rawValue) { quantity = .steps }
        else if equal(type, HealthQuantity.activeEnergy.rawValue) { quantity = .activeEnergy }
        else if equal(type, HealthQuantity.walkingDistance.rawValue) { quantity = .walkingDistance }
        else { return nil }
        let line = tag.line
        let unit = tag.string("unit") ?? ""
        guard let factor = quantity.factor(unit: unit) else {
            return .invalid(line: line, reason: .notOneOf(field: "\(quantity.rawValue) unit", value: String(unit.prefix(20)),
                                                        choices: quantity.units.joined(separator: ", ")))
        }
        guard let text = tag.string("value"), let value = Double(text), value.isFinite else {
            return .invalid(line: line, reason: .numberInvalid(field: "\(quantity.rawValue) value", value: String((tag.string("value") ?? "").prefix(40))))
        }
        guard value >= 0 else { return .invalid(line: line, reason: .negative(field: "\(quantity.rawValue) value", value: String(text.prefix(40)))) }
        guard let raw = tag.raw("startDate"), let start = AppleHealthDate.parse(raw) else {
            return .invalid(line: line, reason: .dateInvalid(field: "startDate", value: String((tag.string("startDate") ?? "").prefix(40)),
                                                           form: "like 2026-10-03 21:15:00 -0300 (or, from iOS 8, 20261003211500-0300)"))
        }
        // iOS 8 exports name the source in `source`.
        guard let source = tag.string("sourceName") ?? tag.string("source"), !source.isEmpty else {
            return .invalid(line: line, reason: .empty("sourceName"))
        }
        return .record(AppleHealthRecord(quantity: quantity, sourceName: source, value: value * factor, startDate: start, line: line))
    }

    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.count == bytes.count && memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
    }
}
