import CFuzzDriver
import Foundation

/// Starts libFuzzer from a target's `main` with the command line's
/// arguments (corpus folders, `-max_total_time=…`, a crash file to replay).
public enum FuzzDriver {
    /// A fuzz target's body: one input, whose pointer may be nil when empty.
    public typealias Body = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// Runs libFuzzer on `body` and exits with its status.
    public static func run(_ body: Body) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, body))
    }

    /// The input as a buffer (empty for a nil pointer).
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: size > 0 ? data : nil, count: size > 0 ? size : 0)
    }
}
