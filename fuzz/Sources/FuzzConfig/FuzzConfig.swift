import TallyCore
import TallyPipeline

/// The `tally.yml` reader (Yams + ConfigLoader): any text either gives a
/// configuration or a ConfigError naming the file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        _ = try ConfigLoader.parse(text, file: "tally.yml")
    } catch let error as ConfigError {
        precondition(error.description.hasPrefix("tally.yml"), "a config error that does not name the file: \(error)")
    } catch {
        preconditionFailure("ConfigLoader.parse threw a \(type(of: error)): \(error)")
    }
    return 0
}
