import Foundation

/// `POST /auth/v1/factors` body, as supabase clients send it.
struct EnrollFactorRequest: Sendable, Decodable {
    var factorType: String
    var friendlyName: String?
    var issuer: String?

    enum CodingKeys: String, CodingKey {
        case issuer
        case factorType = "factor_type"
        case friendlyName = "friendly_name"
    }
}

/// The enrolment's answer: GoTrue's `EnrollFactorResponse`.
struct EnrollFactorResponse: Sendable, Encodable {
    struct TOTPObject: Sendable, Encodable {
        /// Bare SVG markup; the clients put it in a `data:image/svg+xml;utf-8,` URI.
        var qrCode: String
        var secret: String
        var uri: String

        enum CodingKeys: String, CodingKey {
            case secret, uri
            case qrCode = "qr_code"
        }
    }

    var id: String
    var type: String
    var friendlyName: String
    var totp: TOTPObject

    enum CodingKeys: String, CodingKey {
        case id, type, totp
        case friendlyName = "friendly_name"
    }
}

/// `POST /factors/{id}/challenge`'s answer: `expires_at` in Unix seconds.
struct ChallengeFactorResponse: Sendable, Encodable {
    var id: String
    var type: String
    var expiresAt: Int

    enum CodingKeys: String, CodingKey {
        case id, type
        case expiresAt = "expires_at"
    }
}

/// `POST /factors/{id}/verify` body.
struct VerifyFactorRequest: Sendable, Decodable {
    var challengeID: String
    var code: String

    enum CodingKeys: String, CodingKey {
        case code
        case challengeID = "challenge_id"
    }
}

/// `DELETE /factors/{id}`'s answer.
struct UnenrollFactorResponse: Sendable, Codable {
    var id: String
}
