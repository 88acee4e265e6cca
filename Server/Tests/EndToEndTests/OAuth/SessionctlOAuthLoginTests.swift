import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import Testing

/// `sessionctl login --provider strava`, the real binary: it prints the URL,
/// waits for the browser's redirect on a loopback port, and ends signed in.
@Suite(.serialized)
struct SessionctlOAuthLoginTests {
    @Test func loginWithProviderEndsSignedIn() async throws {
        let sessionctl = try Self.sessionctlPath()
        try await OAuthHarness.run { harness in
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("ctl-oauth-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: home) }
            let environment = ["XDG_CONFIG_HOME": home.path, "HOME": home.path, "PATH": "/usr/bin:/bin"]

            let login = try CLIRun(
                sessionctl, ["login", "--provider", "strava", "--json", "--server", harness.serverURL.absoluteString],
                environment: environment, directory: home)
            defer { login.kill() }
            let firstLine = try await login.waitForLine()
            let printed = try JSONSerialization.jsonObject(with: Data(firstLine.utf8)) as? [String: Any]
            let url = try #require((printed?["url"] as? String).flatMap { URL(string: $0) })
            #expect((printed?["redirect_to"] as? String)?.hasPrefix("http://127.0.0.1:") == true)

            // The person consents in the browser; its last hop lands on sessionctl's listener.
            let (callback, _) = try await harness.openInBrowser(url)
            let redirect = try #require(callback)
            #expect(redirect.path == "/callback")
            let (page, answer) = try await URLSession.shared.data(from: redirect)
            #expect((answer as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: page, as: UTF8.self).contains("return to the terminal"))

            let status = try await login.waitForExit()
            #expect(status == 0, "stderr: \(login.stderr)")
            #expect(login.stdout.contains(#""state":"signedIn""#), "\(login.stdout)")

            let check = try CLIRun(sessionctl, ["status", "--json"], environment: environment, directory: home)
            defer { check.kill() }
            #expect(try await check.waitForExit() == 0, "stderr: \(check.stderr)")
            #expect(check.stdout.contains(#""state":"signedIn""#), "\(check.stdout)")
        }
    }

    @Test func deniedConsentEndsWithATypedErrorAndNoSession() async throws {
        let sessionctl = try Self.sessionctlPath()
        try await OAuthHarness.run { harness in
            await harness.strava.set(decision: .deny)
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("ctl-oauth-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: home) }
            let environment = ["XDG_CONFIG_HOME": home.path, "HOME": home.path, "PATH": "/usr/bin:/bin"]

            let login = try CLIRun(
                sessionctl, ["login", "--provider", "strava", "--server", harness.serverURL.absoluteString],
                environment: environment, directory: home)
            defer { login.kill() }
            let lines = try await login.waitForLine(containing: "http")
            let url = try #require(lines.split(separator: "\n").compactMap { URL(string: String($0)) }.first { $0.scheme == "http" })
            let (callback, _) = try await harness.openInBrowser(url)
            _ = try await URLSession.shared.data(from: try #require(callback))

            let denied = try await login.waitForExit()
            #expect(denied == 1, "exit \(denied); stdout: \(login.stdout) stderr: \(login.stderr)")
            #expect(login.stderr.contains("cancelled at the provider"), "\(login.stderr)")
            #expect(!login.stderr.contains("Fatal error"))

            let check = try CLIRun(sessionctl, ["status"], environment: environment, directory: home)
            defer { check.kill() }
            #expect(try await check.waitForExit() == 1)
        }
    }

    static func sessionctlPath() throws -> String {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent(),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug"),
        ].map { $0.appendingPathComponent("sessionctl").path }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw CLIRun.Failure("Not built: sessionctl. Run `swift build --build-tests` before `swift test --skip-build`.")
        }
        return found
    }
}
