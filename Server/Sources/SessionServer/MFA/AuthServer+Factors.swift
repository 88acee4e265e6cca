extension AuthServer {
    /// Second factors, for the API's routes and the account page alike (docs/MFA.md).
    var factors: FactorService {
        FactorService(sessions: sessions, codes: codes, kek: configuration.keyEncryptionKey ?? .embeddedDefault)
    }
}
