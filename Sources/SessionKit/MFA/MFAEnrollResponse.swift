/// A new, unverified TOTP factor: show its QR code (or the
/// secret) once, then verify a code from the authenticator app to finish.
public struct MFAEnrollResponse: Sendable, Hashable, Codable {
    /// The secret an authenticator app needs, sent once.
    public struct TOTP: Sendable, Hashable, Codable {
        /// SVG markup, as GoTrue sends it; prefix `data:image/svg+xml;utf-8,` to show it in a web view.
        public var qrCode: String
        /// The shared secret, base32, for typing in by hand.
        public var secret: String
        /// The `otpauth://totp/…` URI the QR code holds.
        public var uri: String

        public init(qrCode: String, secret: String, uri: String) {
            self.qrCode = qrCode
            self.secret = secret
            self.uri = uri
        }

        enum CodingKeys: String, CodingKey {
            case secret, uri
            case qrCode = "qr_code"
        }
    }

    /// The factor's id, for ``SessionMFA/challenge(factorId:)`` and ``SessionMFA/verify(factorId:challengeId:code:)``.
    public var id: String
    /// `totp`.
    public var type: String
    public var friendlyName: String?
    public var totp: TOTP?

    public init(id: String, type: String, friendlyName: String?, totp: TOTP?) {
        self.id = id
        self.type = type
        self.friendlyName = friendlyName
        self.totp = totp
    }

    enum CodingKeys: String, CodingKey {
        case id, type, totp
        case friendlyName = "friendly_name"
    }
}

extension MFAEnrollResponse.TOTP: CustomStringConvertible, CustomDebugStringConvertible {
    /// Redacted: the secret (and the URI and QR code that hold it) never reach a log.
    public var description: String { "TOTP(secret: <redacted>)" }
    public var debugDescription: String { description }
}
