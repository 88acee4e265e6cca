import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionKitFaultProxy
import SessionKitTesting
import SessionServer
import Testing

/// The answers of things in between — a proxy's or WAF's HTML 401/403, an
/// API gateway's "Invalid API key", a captive portal, a redirect — on real
/// sockets, on the refresh path and on API calls. None is the auth server's
/// verdict: the session survives each, and works once the fault clears.
struct IntermediariesThroughProxyTests {
    static let faults = ProxyFault.intermediaries

    @Test(arguments: faults)
    func aRefreshAnsweredInBetweenKeepsTheSession(fault: ProxyFault) async throws {
        let armed = ArmedFault(fault)
        try await ProxiedServer.run(plan: FaultPlan {
            $0.target.contains("grant_type=refresh_token") ? armed.take() : nil
        }) { stack in
            let (client, first) = try await Self.signedIn(stack, name: "refresh-\(fault.name)")
            let logouts = LogoutCounter(client)
            armed.arm()
            let error = await #expect(throws: SessionError.self) { try await client.refresh() }
            #expect(error?.isTransient == true, "\(fault): \(String(describing: error))")
            #expect(client.currentState.isSignedIn)
            #expect(await client.currentSession?.refreshToken == first.refreshToken)
            #expect(stack.proxy.statistics.faults[fault.name] == 1)
            // The fault cleared: the same refresh token works, nothing was revoked.
            let recovered = try await client.refresh()
            #expect(recovered.refreshToken != first.refreshToken)
            try await Self.expectFamilyIntact(stack, first)
            await client.shutdown()
            #expect(await logouts.total() == 0)
        }
    }

    @Test(arguments: faults)
    func anAPICallAnsweredInBetweenKeepsTheSession(fault: ProxyFault) async throws {
        let armed = ArmedFault(fault)
        try await ProxiedServer.run(plan: FaultPlan {
            $0.target.hasPrefix("/auth/v1/user") ? armed.take() : nil
        }) { stack in
            let (client, first) = try await Self.signedIn(stack, name: "api-\(fault.name)")
            let logouts = LogoutCounter(client)
            armed.arm()
            do {
                _ = try await client.me()
            } catch {
                // A 403 page or a portal is the caller's error; a sign-out would not be.
            }
            #expect(client.currentState.isSignedIn)
            #expect(stack.proxy.statistics.faults[fault.name] == 1)
            let user = try await client.me()
            #expect(user.email == "api-\(fault.name)@proxy.test")
            try await Self.expectFamilyIntact(stack, first)
            await client.shutdown()
            #expect(await logouts.total() == 0)
        }
    }

    static func signedIn(_ stack: ProxiedServer, name: String) async throws -> (SessionClient, Session) {
        let client = RefreshThroughFaultsTests.client(stack: stack, url: stack.proxy.url)
        _ = try await client.restore()
        guard case .signedIn(let session) = try await client.signUp(email: "\(name)@proxy.test", password: "proxy-password-9") else {
            throw SessionError.notSignedIn
        }
        return (client, session)
    }

    static func expectFamilyIntact(_ stack: ProxiedServer, _ first: Session) async throws {
        let sessionID = try #require(first.sessionID)
        let family = try #require(try await stack.server.store.session(id: sessionID))
        #expect(!family.isRevoked, "family revoked (\(family.revokedReason ?? ""))")
    }
}
