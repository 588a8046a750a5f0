import Foundation
import Testing
@testable import TallyIngest

/// Inputs built to hurt a reader: each must fail fast with a message naming the file.
@Suite("Apple Health: hostile inputs")
struct AppleHealthHostileInputTests {
    func failure(_ url: URL, display: String = "health/u1/export.xml", limits: AppleHealthExportReader.Limits = .init()) -> String {
        do {
            _ = try readAll(url, display: display, limits: limits)
            return ""
        } catch {
            return "\(error)"
        }
    }

    @Test func billionLaughsIsNeverExpanded() throws {
        let dir = try TemporaryDirectory()
        var dtd = "<!DOCTYPE HealthData [\n <!ENTITY lol \"lol\">\n"
        for i in 1...9 { dtd += " <!ENTITY lol\(i) \"" + String(repeating: "&lol\(i == 1 ? "" : String(i - 1));", count: 10) + "\">\n" }
        dtd += "]>\n"
        let url = try dir.file("export.xml", export(record(source: "&lol9;"), dtd: dtd))
        let message = failure(url)
        #expect(message.hasPrefix("health/u1/export.xml, line 16: entity reference &lol9; is not expanded"))
    }

    @Test func externalEntitiesAreNeverFetched() throws {
        let dir = try TemporaryDirectory()
        let dtd = "<!DOCTYPE HealthData [\n <!ENTITY xxe SYSTEM \"file:///etc/passwd\">\n]>\n"
        let url = try dir.file("export.xml", export(" <Me name=\"&xxe;\"/>", dtd: dtd))
        let message = failure(url)
        #expect(message.contains("health/u1/export.xml, line 7"))
        #expect(message.contains("&xxe;"))
        #expect(!message.contains("root:"))
        // An undeclared entity in text is refused as well.
        let text = try dir.file("text.xml", export("&nbsp;"))
        #expect(failure(text).contains("&nbsp; is not an XML character or predefined entity reference"))
    }

    @Test func aZipBombIsRefused() throws {
        let dir = try TemporaryDirectory()
        let zip = dir.url.appendingPathComponent("export.zip")
        // 20 MB of spaces deflates about 1000×.
        try makeZip(zip, [("apple_health_export/export.xml", [UInt8](repeating: 0x20, count: 20 << 20))])
        let message = failure(zip, display: "health/u1/export.zip")
        #expect(message.hasPrefix("health/u1/export.zip: zip entry apple_health_export/export.xml declares 20971520 bytes"))
        #expect(message.contains("zip bomb"))
        // A configured maximum applies too.
        let small = dir.url.appendingPathComponent("small.zip")
        try makeZip(small, [("export.xml", Array(export(record()).utf8))])
        #expect(failure(small, limits: .init(maxUncompressedBytes: 100)).contains("over the limit of 100 bytes"))
    }

    @Test func zipEntriesWithParentPathsAreNotChosen() throws {
        let dir = try TemporaryDirectory()
        let zip = dir.url.appendingPathComponent("export.zip")
        try makeZip(zip, [("../../export.xml", Array(export(record()).utf8))])
        let message = failure(zip, display: "health/u1/export.zip")
        #expect(message == "health/u1/export.zip: no export.xml in the zip (refused unsafe entry paths: ../../export.xml)")
        #expect(!FileManager.default.fileExists(atPath: dir.url.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("export.xml").path))
    }

    @Test func truncatedAndNonExportFilesFailWithTheirName() throws {
        let dir = try TemporaryDirectory()
        let cut = try dir.file("cut.xml", String(export(record()).prefix(150)))
        #expect(failure(cut, display: "health/u1/export.xml").hasPrefix("health/u1/export.xml, line"))
        let other = try dir.file("other.xml", "<gpx><trk/></gpx>")
        #expect(failure(other).contains("not <HealthData>"))
        let garbage = try dir.file("garbage.zip", "not a zip")
        #expect(failure(garbage, display: "health/u1/export.zip").hasPrefix("health/u1/export.zip: not a readable zip file"))
        let endless = try dir.file("endless.xml", "<HealthData>\n<Record type=\"" + String(repeating: "x", count: 3 << 20))
        #expect(failure(endless).contains("longer than"))
    }
}
