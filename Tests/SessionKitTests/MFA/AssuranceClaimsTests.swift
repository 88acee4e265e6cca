import Foundation
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// The assurance level read from the access token's `aal`/`amr` and the user's factors.
struct AssuranceClaimsTests {
    static func token(_ claims: String) -> String {
        Base64URL.encode(Data(#"{"alg":"ES256"}"#.utf8)) + "." + Base64URL.encode(Data(claims.utf8)) + ".c2ln"
    }

    static func session(_ claims: String, factors: [UserFactor]? = nil) -> Session {
        let user = SessionUser(id: "u", email: "ada@example.com", createdAt: nil, updatedAt: nil, factors: factors)
        return Session(accessToken: token(claims), refreshToken: "r", expiresAt: Date(timeIntervalSince1970: 2_000_000_000), user: user)
    }

    static let verified = UserFactor(id: "f", friendlyName: nil, factorType: "totp", status: "verified", createdAt: nil, updatedAt: nil)
    static let unverified = UserFactor(id: "g", friendlyName: nil, factorType: "totp", status: "unverified", createdAt: nil, updatedAt: nil)

    @Test func readsTheLevelAndMethodsNewestFirst() {
        let session = Self.session(
            #"{"aal":"aal2","amr":[{"method":"password","timestamp":1700000000},{"method":"totp","timestamp":1700000120}]}"#,
            factors: [Self.verified])
        let assurance = session.assurance
        #expect(assurance.currentLevel == .aal2)
        #expect(assurance.nextLevel == .aal2)
        #expect(assurance.currentAuthenticationMethods.map(\.method) == ["totp", "password"])
        #expect(assurance.currentAuthenticationMethods.first?.timestamp == Date(timeIntervalSince1970: 1_700_000_120))
        #expect(!session.needsSecondFactor)
    }

    @Test func aVerifiedFactorMakesTheNextLevelAAL2() {
        #expect(Self.session(#"{"aal":"aal1"}"#, factors: [Self.verified]).needsSecondFactor)
        // An unverified factor (an enrolment not finished) asks for nothing at sign-in.
        let unfinished = Self.session(#"{"aal":"aal1"}"#, factors: [Self.unverified])
        #expect(unfinished.assurance.nextLevel == .aal1)
        #expect(!unfinished.needsSecondFactor)
    }

    @Test func aTokenWithoutOrWithBadClaimsReadsNoLevelAndNeverThrows() {
        #expect(Self.session(#"{"sub":"u"}"#).assurance.currentLevel == nil)
        #expect(Self.session(#"{"aal":7,"amr":"password"}"#).assurance.currentLevel == nil)
        let opaque = Session(accessToken: "opaque-token", refreshToken: "r", expiresAt: Date(timeIntervalSince1970: 2_000_000_000))
        #expect(opaque.assurance.currentLevel == nil)
        #expect(opaque.assurance.currentAuthenticationMethods.isEmpty)
        // An unknown level from a newer server still reads.
        #expect(Self.session(#"{"aal":"aal3"}"#).assurance.currentLevel == AuthenticatorAssuranceLevel(rawValue: "aal3"))
    }
}
