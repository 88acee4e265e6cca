import Foundation

/// A throwaway self-signed certificate for localhost and 127.0.0.1, made with the openssl CLI.
struct TestCertificate {
    let certificatePath: String
    let keyPath: String

    static func make(in directory: URL) async throws -> TestCertificate {
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        try await TestProcess.run([
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-days", "1",
            "-keyout", key, "-out", certificate,
        ])
        return TestCertificate(certificatePath: certificate, keyPath: key)
    }
}
