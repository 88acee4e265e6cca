/// A configuration value that cannot be used; the description names it and
/// says what to write instead.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
