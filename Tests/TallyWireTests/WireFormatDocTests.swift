import Foundation
import Testing
@testable import TallyCore
@testable import TallyWire

/// docs/wire-format.md stays true: its example block has a line of every
/// kind, and each decodes and re-encodes to the same bytes.
@Suite("Wire: the documented examples")
struct WireFormatDocTests {
    /// The lines of the doc's ```wire block.
    static func exampleLines() throws -> [[UInt8]] {
        let doc = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/wire-format.md")
        let text = try String(contentsOf: doc, encoding: .utf8)
        let block = try #require(text.components(separatedBy: "```wire\n").dropFirst().first?.components(separatedBy: "\n```").first)
        return block.split(separator: "\n").map { Array($0.utf8) }
    }

    /// The line decoded as `type` and written again.
    static func reencoded<Record: WireRecord>(_ type: Record.Type, _ line: WireLine) throws -> [UInt8] {
        try line.decode(Record.self).wireLine
    }

    @Test func everyKindHasAnExampleThatReadsBackTheSame() throws {
        let lines = try Self.exampleLines()
        var documented = Set<String>()
        for bytes in lines {
            try (bytes + [0x0A]).withUnsafeBufferPointer { buffer in
                var reader = WireLineReader(buffer)
                let line = try #require(try reader.next())
                let type = try #require(WireKinds.all.first { line.is($0) }, "unknown kind in \(line.tag)")
                #expect(try Self.reencoded(type, line) == bytes + [0x0A], "\(line.tag)")
                #expect(line.version == type.wireVersion)
                documented.insert(type.wireKind)
            }
        }
        #expect(documented == Set(WireKinds.all.map { $0.wireKind }))
    }
}
