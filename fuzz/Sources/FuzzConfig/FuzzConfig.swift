import FuzzSupport
import TallyCore
import TallyPipeline

/// The `tally.yml` reader (Yams + ConfigLoader): any text either gives a
/// configuration or a ConfigError naming the file.
@main enum FuzzConfig {
    static func main() { FuzzDriver.run(testOneInput) }
}

func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: FuzzDriver.bytes(data, size), as: UTF8.self)
    do {
        _ = try ConfigLoader.parse(text, file: "tally.yml")
    } catch let error as ConfigError {
        precondition(error.description.hasPrefix("tally.yml"), "a config error that does not name the file: \(error)")
    } catch {
        preconditionFailure("ConfigLoader.parse threw a \(type(of: error)): \(error)")
    }
    return 0
}
