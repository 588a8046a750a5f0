/// An Apple Health export that cannot be read; the message names the file.
public struct AppleHealthExportError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
