import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// No character run of a token ever appears in a log line.
@Suite(.timeLimit(.minutes(1)))
struct LoggingTests {
    @Test func noTokenAppearsInAnyLogLine() async throws {
        let f = await Fixture.make(automaticRefresh: true)
        var tokens: [String] = []
        let first = try await f.signIn()
        tokens += [first.accessToken, first.refreshToken]
        // Walk through the noisy paths: failures, retries, refreshes, persistence, sign-out.
        await f.fake.inject(.drop(.timedOut), on: .refresh)
        f.expireAccessToken()
        _ = try? await f.client.accessToken()
        let second = try await f.client.refresh()
        tokens += [second.accessToken, second.refreshToken]
        await f.fake.inject(.gatewayError(status: 401, code: .sessionExpired), on: .activities)
        _ = try await f.client.send(URLRequest(url: f.fake.baseURL.appendingPathComponent("v1/activities")))
        if let third = await f.client.currentSession { tokens += [third.accessToken, third.refreshToken] }
        await f.fake.inject(.goTrueError(status: 400, code: .refreshTokenNotFound), on: .refresh)
        _ = try? await f.client.refresh()
        await f.client.shutdown()

        let lines = f.logs.lines
        #expect(lines.count > 5)
        for token in tokens {
            // Any 5-character window of a token would be a leak (a refresh token may be 12 characters).
            let windows = Set((0...(token.count - 5)).map { offset -> String in
                let start = token.index(token.startIndex, offsetBy: offset)
                return String(token[start..<token.index(start, offsetBy: 5)])
            })
            for line in lines {
                #expect(!windows.contains { line.contains($0) }, "a token leaked into: \(line)")
            }
        }
        // Fingerprints do appear, so the test is looking at the right lines.
        #expect(lines.contains { $0.contains(TokenRedaction.fingerprint(second.refreshToken)) })
    }

    @Test func sessionDescriptionIsRedacted() async throws {
        let f = await Fixture.make()
        let session = try await f.signIn()
        #expect(!"\(session)".contains(session.accessToken))
        #expect(!"\(session)".contains(session.refreshToken))
    }
}
