import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import Testing

@testable import SessionKit

/// What the GoTrue backend sends for OAuth.
struct OAuthBackendTests {
    let backend = GoTrueBackend(url: URL(string: "https://auth.example.com")!, apiKey: "anon")

    @Test func theAuthorizeURLKeepsARedirectWithItsOwnQueryIntact() throws {
        let redirect = try #require(URL(string: "https://app.example.com/cb?next=/a&plan=pro+max"))
        let url = try backend.authorizationURL(
            for: OAuthAuthorizationRequest(provider: "strava", redirectTo: redirect, scopes: ["read", "activity:read"], codeChallenge: "c"))
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.count == 5)
        #expect(items.first { $0.name == "redirect_to" }?.value == redirect.absoluteString)
        #expect(items.first { $0.name == "scopes" }?.value == "read activity:read")
        #expect(url.absoluteString.hasPrefix("https://auth.example.com/auth/v1/authorize?"))
    }

    @Test func theCodeExchangeIsGoTruesPKCEGrant() throws {
        let request = try backend.request(for: .exchangeCode(PKCETokenRequest(authCode: "code", codeVerifier: "verifier")))
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "https://auth.example.com/auth/v1/token?grant_type=pkce")
        #expect(request.value(forHTTPHeaderField: "apikey") == "anon")
        let body = try JSONSerialization.jsonObject(with: try #require(request.httpBody)) as? [String: String]
        #expect(body == ["auth_code": "code", "code_verifier": "verifier"])
        #expect(!BackendOperation.exchangeCode(PKCETokenRequest(authCode: "", codeVerifier: "")).requiresAuthorization)
    }

    @Test func confirmationGoesToTheGatewayFirst() throws {
        #expect(try backend.request(for: .confirmSession).url?.path == "/v1/auth/me")
        #expect(try backend.request(for: .currentUser).url?.path == "/auth/v1/user")
    }

    @Test func verifiersAreFreshAndAnswerTheirChallenge() {
        let verifiers = (0..<20).map { _ in PKCE.makeVerifier() }
        #expect(Set(verifiers).count == 20)
        #expect(verifiers.allSatisfy { $0.count == 43 && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } })
        // RFC 7636 appendix B.
        #expect(PKCE.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }
}
