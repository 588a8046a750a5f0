import Testing
@testable import TallyReports

@Suite struct SafeFileNameTests {
    @Test func plainIdsAreTheirOwnStem() {
        #expect(SafeFileName.stem(for: "cpl-000012") == "cpl-000012")
        #expect(SafeFileName.stem(for: "a.b_c-9") == "a.b_c-9")
        #expect(SafeFileName.stem(for: "x") == "x")
    }

    @Test func unsafeIdsChangeAndCarryAHashOfTheOriginal() {
        let up = SafeFileName.stem(for: "../up")
        #expect(up.hasPrefix("_._up-") && up.count == "_._up-".count + 8)
        #expect(SafeFileName.stem(for: "a/b") == "a_b-" + SafeFileName.fnv1a("a/b"))
        #expect(SafeFileName.stem(for: "José").hasPrefix("Jos_-"))
        #expect(SafeFileName.stem(for: "") == "_-" + SafeFileName.fnv1a(""))
        #expect(SafeFileName.stem(for: ".hidden").hasPrefix("_hidden-"))
    }

    @Test func reservedDeviceNamesAreAvoidedWhateverTheCaseOrExtension() {
        #expect(SafeFileName.stem(for: "CON").hasPrefix("_CON-"))
        #expect(SafeFileName.stem(for: "con.txt").hasPrefix("_con.txt-"))
        #expect(SafeFileName.stem(for: "Lpt9").hasPrefix("_Lpt9-"))
        #expect(SafeFileName.stem(for: "cons") == "cons")
        #expect(SafeFileName.stem(for: "com10") == "com10")
    }

    @Test func longIdsAreCutTo80CharactersPlusTheHash() {
        let id = String(repeating: "a", count: 81)
        #expect(SafeFileName.stem(for: id) == String(repeating: "a", count: 80) + "-" + SafeFileName.fnv1a(id))
        let fits = String(repeating: "b", count: 80)
        #expect(SafeFileName.stem(for: fits) == fits)
    }

    /// The byte-level shortcut for ids that are safe as they are gives what
    /// the full rewrite gives, for ids drawn from the characters that decide.
    @Test func theShortcutAgreesWithTheFullRewrite() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [String] = ["a", "Z", "0", "-", "_", ".", "/", " ", "é", "C", "O", "N", "c", "o", "n", "1"]
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...(Bool.random(using: &generator) ? 6 : 90), using: &generator)
            let id = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            #expect(SafeFileName.stem(for: id) == SafeFileName.rewritten(id), "id \(id)")
        }
        for id in ["CON", "con.x", "nul", "COM1", "com1.txt", "LPT1", "aux.", "prn.a.b", "CONx", "co", "COM0"] {
            #expect(SafeFileName.stem(for: id) == SafeFileName.rewritten(id), "id \(id)")
        }
    }
}
