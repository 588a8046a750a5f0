import Foundation
import ZIPFoundation
import Testing
@testable import TallyGenerator
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("Gzip files")
struct GzipTests {
    @Test("gzip files decompress, end cleanly and carry modification time 0",
          arguments: ["swipes/swipes.ndjson.gz", "subscriptions/events.csv.gz"])
    func decompresses(path: String) throws {
        let raw = try SampleData.rawBytes(path)
        #expect(Array(raw.prefix(3)) == [0x1F, 0x8B, 8])
        #expect(Array(raw[4..<8]) == [0, 0, 0, 0], "mtime is zero")
        let content = try SampleData.gunzip(raw)
        #expect(content.count > raw.count)
        #expect(content.last == 10)
    }

    @Test("the gzip writer round-trips arbitrary chunks")
    func roundTrip() throws {
        let directory = SampleData.temporaryDirectory("gzip")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("x.gz")
        let writer = try GzipFileWriter(url: url, level: 6)
        var expected: [UInt8] = []
        var random = RandomSource(seed: 3, stream: 3)
        for size in [0, 1, 70_000, 300_000, 5] {
            let chunk = (0..<size).map { _ in UInt8(random.int(4) + 65) }
            expected += chunk
            try writer.write(chunk)
        }
        let bytes = try writer.close()
        let raw = [UInt8](try Data(contentsOf: url))
        #expect(Int64(raw.count) == bytes)
        #expect(try SampleData.gunzip(raw) == expected)
    }
}

@Suite("Apple Health exports")
struct AppleHealthExportTests {
    var exports: [GenerationSummary.File] {
        SampleData.shared.summary.files.filter { $0.path.hasSuffix("/export.xml") || $0.path.hasSuffix("/export.zip") }
    }

    /// An export's XML: the file, or the zip's localised entry.
    func xml(_ file: GenerationSummary.File) throws -> String {
        guard file.path.hasSuffix(".zip") else { return try SampleData.text(file.path) }
        let archive = try Archive(url: SampleData.shared.directory.appendingPathComponent(file.path), accessMode: .read)
        var data = Data()
        _ = try archive.extract(archive["apple_health_export/exportar.xml"]!) { data.append($0) }
        return String(decoding: data, as: UTF8.self)
    }

    @Test("one export is a macOS re-zip: localised exportar.xml, __MACOSX/ and .DS_Store entries, fixed dates")
    func zipped() throws {
        let zip = try #require(exports.first { $0.path.hasSuffix(".zip") })
        let archive = try Archive(url: SampleData.shared.directory.appendingPathComponent(zip.path), accessMode: .read)
        #expect(archive.map(\.path) == ["apple_health_export/exportar.xml", "apple_health_export/.DS_Store",
                                        "__MACOSX/apple_health_export/._exportar.xml"])
        #expect(Set(archive.map { $0.fileAttributes[.modificationDate] as? Date }).count == 1)
        #expect(try xml(zip).contains("<HealthData locale=\"pt_BR\">"))
    }

    @Test("exports have the Health app's layout: declaration, inline DTD, HealthData, ExportDate, Me")
    func layout() throws {
        #expect(exports.count == 3)
        for file in exports {
            let text = try xml(file)
            #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE HealthData ["))
            #expect(text.contains("<!ATTLIST Record"))
            #expect(text.contains("<HealthData locale=\""))
            #expect(text.contains("<ExportDate value=\""))
            #expect(text.contains("<Me HKCharacteristicTypeIdentifierDateOfBirth="))
            #expect(text.hasSuffix("</HealthData>\n"))
            #expect(file.records > 150 && file.records < 600)
        }
    }

    @Test("exports are well-formed XML with overlapping sources, mixed units and ignorable types")
    func wellFormed() throws {
        var units: Set<String> = []
        var types: Set<String> = []
        var elements: Set<String> = []
        for file in exports {
            let text = try xml(file)
            // Parse a copy without the DTD (Foundation's parser need not read internal subsets).
            let body = String(text[text.range(of: "]>\n")!.upperBound...])
            let collector = RecordCollector()
            let parser = XMLParser(data: Data(body.utf8))
            parser.delegate = collector
            #expect(parser.parse(), "\(file.path): \(String(describing: parser.parserError))")
            #expect(collector.records.count == file.records)
            let steps = collector.records.filter { $0["type"] == "HKQuantityTypeIdentifierStepCount" }
            #expect(Set(steps.compactMap { $0["sourceName"] }).count == 2, "phone and watch both count steps")
            let starts = Dictionary(grouping: steps, by: { $0["startDate"]! })
            #expect(starts.values.contains { $0.count == 2 }, "the same walk recorded twice")
            for record in collector.records {
                units.insert(record["unit"] ?? "")
                types.insert(record["type"] ?? "")
                #expect(record["startDate"]!.count == 25)
            }
            elements.formUnion(collector.elements)
        }
        #expect(units.isSuperset(of: ["count", "kcal", "Cal", "kJ", "km", "mi", "m"]))
        #expect(types.contains("HKQuantityTypeIdentifierHeartRate"))
        #expect(elements.isSuperset(of: ["HealthData", "ExportDate", "Me", "Record", "Workout", "ActivitySummary", "MetadataEntry"]))
    }
}

/// Collects `Record` attributes and element names.
final class RecordCollector: NSObject, XMLParserDelegate {
    var records: [[String: String]] = []
    var elements: Set<String> = []

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        elements.insert(elementName)
        if elementName == "Record" { records.append(attributeDict) }
    }
}
