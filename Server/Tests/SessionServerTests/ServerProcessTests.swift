import Foundation
import ProcessTesting
import SessionCore
import SessionServer
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real `auth-server` executable: default start-up, SIGTERM, replicas as processes.
@Suite(
    .serialized,
    .enabled(if: Binaries.missing([Binaries.authServer]) == nil, "auth-server is not built: run `swift build --build-tests` first"))
struct ServerProcessTests {
    func request(_ port: Int, _ method: String, _ path: String, json: String? = nil) async throws -> (Int, Data) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = json.map { Data($0.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("auth-server-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func startsOnTheDefaultSQLiteFileAndStopsCleanlyOnSIGTERM() async throws {
        let directory = try Self.temporaryDirectory()
        let server = try await AuthServerChild(arguments: ["serve", "--port", "0"], directory: directory)
        let (status, _) = try await request(server.port, "GET", "/auth/v1/health")
        #expect(status == 200)
        let (signUp, _) = try await request(
            server.port, "POST", "/auth/v1/signup", json: #"{"email":"ada@example.com","password":"correct-horse"}"#)
        #expect(signUp == 200)
        #expect(FileManager.default.fileExists(atPath: directory + "/data/auth.sqlite"))
        #expect(try await server.terminate() == 0)

        // The account and the keys survive a restart.
        let again = try await AuthServerChild(arguments: ["serve", "--port", "0"], directory: directory)
        let (signIn, _) = try await request(
            again.port, "POST", "/auth/v1/token?grant_type=password",
            json: #"{"email":"ada@example.com","password":"correct-horse"}"#)
        #expect(signIn == 200)
        #expect(try await again.terminate() == 0)
        #expect(!again.log.contains("correct-horse"))
    }

    @Test(.enabled(if: TestDatabase.postgresURL != nil, "SESSIONKIT_TEST_POSTGRES_URL is not set"))
    func twoProcessesOnOnePostgreSQLBehaveAsOne() async throws {
        let directory = try Self.temporaryDirectory()
        guard case .postgres(url: let url) = TestDatabase.postgresLocation(schema: TestDatabase.freshSchemaName()) else {
            Issue.record("expected a PostgreSQL location")
            return
        }
        let a = try await AuthServerChild(arguments: ["serve", "--port", "0", "--database", url], directory: directory)
        let b = try await AuthServerChild(arguments: ["serve", "--port", "0", "--database", url], directory: directory)
        let (_, body) = try await request(
            a.port, "POST", "/auth/v1/signup", json: #"{"email":"ada@example.com","password":"correct-horse"}"#)
        let session = try WireCoding.decoder().decode(TokenResponse.self, from: body)
        let (me, _) = try await request(b.port, "GET", "/auth/v1/health")
        #expect(me == 200)
        let (refreshStatus, refreshed) = try await request(
            b.port, "POST", "/auth/v1/token?grant_type=refresh_token", json: #"{"refresh_token":"\#(session.refreshToken)"}"#)
        #expect(refreshStatus == 200)
        let second = try WireCoding.decoder().decode(TokenResponse.self, from: refreshed)
        let (thirdStatus, _) = try await request(
            a.port, "POST", "/auth/v1/token?grant_type=refresh_token", json: #"{"refresh_token":"\#(second.refreshToken)"}"#)
        #expect(thirdStatus == 200)
        #expect(try await a.terminate() == 0)
        #expect(try await b.terminate() == 0)
    }
}
