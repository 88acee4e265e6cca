/// A factor removed (`DELETE /auth/v1/factors/{id}` answers `{"id": …}`).
public struct MFAUnenrollResponse: Sendable, Hashable, Codable {
    /// The id of the factor that was removed.
    public var factorId: String

    public init(factorId: String) { self.factorId = factorId }

    enum CodingKeys: String, CodingKey {
        case factorId = "id"
    }
}
