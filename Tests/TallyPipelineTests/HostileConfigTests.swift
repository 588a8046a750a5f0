import Foundation
import Testing
@testable import TallyPipeline

/// A hostile `tally.yml`: alias bombs, deep nesting, bad bytes, numbers out of
/// range. Each is a ConfigError naming the file (and line where there is
/// one), quickly, without a crash.
@Suite("Hostile input: configuration")
struct HostileConfigTests {
    static let fixtures = repositoryRoot.appendingPathComponent("Tests/Fixtures/hostile/config")

    static func error(_ load: () throws -> Void) -> String? {
        do {
            try load()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aBillionLaughsAliasBombIsRefusedQuickly() throws {
        let started = Date()
        let message = Self.error { _ = try ConfigLoader.load(Self.fixtures.appendingPathComponent("billion-laughs.yml")) }
        #expect(message?.hasPrefix("billion-laughs.yml line 1: unknown setting 'a'") == true, "\(message ?? "no error")")
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("billion-laughs.yml"), encoding: .utf8)
            .replacingOccurrences(of: "i: &i", with: "products: &i")
        let products = Self.error { _ = try ConfigLoader.parse("products: []\n" + text.split(separator: "\n").last! + "\n", file: "tally.yml") }
        #expect(products != nil)
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test(arguments: [("flow", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)),
                      ("mapping", String(repeating: "{a: ", count: 100_000) + "1" + String(repeating: "}", count: 100_000))])
    func configNested100000DeepIsRefusedWithoutRecursion(kind: String, nested: String) {
        let message = Self.error { _ = try ConfigLoader.parse("statements: " + nested + "\n", file: "tally.yml") }
        #expect(message == "tally.yml line 1: nested more than \(ConfigLoader.maxDepth) levels deep", "\(kind)")
    }

    @Test func anApostropheInPlainTextDoesNotHideDeepNesting() {
        let text = "locale: don't\nstatements: " + String(repeating: "[", count: 100_000) + "\n"
        let message = Self.error { _ = try ConfigLoader.parse(text, file: "tally.yml") }
        #expect(message == "tally.yml line 2: nested more than \(ConfigLoader.maxDepth) levels deep")
        let quoted = Self.error { _ = try ConfigLoader.parse("locale: '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[['\n", file: "tally.yml") }
        #expect(quoted?.contains("nested") == false, "brackets inside a quoted scalar do not count: \(quoted ?? "")")
    }

    @Test func deepBlockIndentationIsRefused() {
        var text = ""
        for depth in 0..<300 { text += String(repeating: " ", count: depth) + "k\(depth):\n" }
        let message = Self.error { _ = try ConfigLoader.parse(text, file: "tally.yml") }
        #expect(message == "tally.yml line \(ConfigLoader.maxIndent + 2): indented more than \(ConfigLoader.maxIndent) columns")
    }

    @Test func invalidUTF8AndNULAreRefusedNamingTheFile() {
        let utf8 = Self.error { _ = try ConfigLoader.load(Self.fixtures.appendingPathComponent("invalid-utf8.yml")) }
        #expect(utf8?.contains("invalid-utf8.yml") == true, "\(utf8 ?? "no error")")
        let nul = Self.error { _ = try ConfigLoader.load(Self.fixtures.appendingPathComponent("nul.yml")) }
        #expect(nul?.contains("nul.yml") == true, "\(nul ?? "no error")")
    }

    @Test func numbersOutOfRangeAreRefusedNamingTheSetting() {
        let message = Self.error { _ = try ConfigLoader.load(Self.fixtures.appendingPathComponent("huge-number.yml")) }
        #expect(message == "huge-number.yml line 2: statements.trendMonths must be a whole number")
        let negative = Self.error { _ = try ConfigLoader.parse("leaderboards:\n  minimumWorkoutMinutes: -30\n", file: "tally.yml") }
        #expect(negative == "tally.yml line 2: leaderboards.minimumWorkoutMinutes is -30; it must be between 0 and 1440")
    }

    @Test func aHugeConfigIsRefusedBeforeParsing() {
        let text = "# " + String(repeating: "x", count: ConfigLoader.maxBytes) + "\n"
        let message = Self.error { _ = try ConfigLoader.parse(text, file: "tally.yml") }
        #expect(message == "tally.yml: larger than \(ConfigLoader.maxBytes) bytes; a tally configuration is a few lines")
    }
}
