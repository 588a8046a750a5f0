import Foundation
import Testing

/// `make preview` without LibreOffice: what the script checks before it renders anything.
@Suite("make preview")
struct PreviewScriptTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/preview.sh")

    @Test func aMissingOutFolderIsNamedAndExits66() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [Self.script.path, "/nonexistent/tally-reports", "/tmp/tally-preview-unused"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 66)
        #expect(message.contains("no folder '/nonexistent/tally-reports'"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/tally-preview-unused"))
    }

    @Test func thePreviewFolderIsIgnoredByGit() throws {
        let gitignore = Self.script.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".gitignore")
        let lines = try String(contentsOf: gitignore, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains("/preview/"))
    }
}
