// Interface stub of AuthenticationServices' platform passkeys (WebAuthn), as Apple's pages
// declare them: the provider, its two requests, and the two credentials with the protocols
// their properties are declared on. Part of the AuthenticationServices stub module (check.sh
// builds every file of this folder). Type-checking only (see ../../check.sh).
import Foundation

#if !SDKSTUB_OS_watchOS
// watchOS is not on these pages' platform lists.

// https://developer.apple.com/documentation/authenticationservices/aspublickeycredential
// `protocol ASPublicKeyCredential : ASAuthorizationCredential`
@available(iOS 15.0, macOS 12.0, tvOS 15.0, visionOS 1.0, *)
public protocol ASPublicKeyCredential: ASAuthorizationCredential {
    // https://developer.apple.com/documentation/authenticationservices/aspublickeycredential/credentialid
    var credentialID: Data { get }
    // https://developer.apple.com/documentation/authenticationservices/aspublickeycredential/rawclientdatajson
    var rawClientDataJSON: Data { get }
}

// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialregistration
// `protocol ASAuthorizationPublicKeyCredentialRegistration : ASPublicKeyCredential`
@available(iOS 15.0, macOS 12.0, tvOS 16.0, visionOS 1.0, *)
public protocol ASAuthorizationPublicKeyCredentialRegistration: ASPublicKeyCredential {
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialregistration/rawattestationobject
    var rawAttestationObject: Data? { get }
}

// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialassertion
// `protocol ASAuthorizationPublicKeyCredentialAssertion : ASPublicKeyCredential`
@available(iOS 15.0, macOS 12.0, tvOS 16.0, visionOS 1.0, *)
public protocol ASAuthorizationPublicKeyCredentialAssertion: ASPublicKeyCredential {
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialassertion/rawauthenticatordata
    var rawAuthenticatorData: Data! { get }
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialassertion/userid
    var userID: Data! { get }
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialassertion/signature
    var signature: Data! { get }
}

// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialregistration
// `class ASAuthorizationPlatformPublicKeyCredentialRegistration`
@available(iOS 15.0, macOS 12.0, tvOS 16.0, visionOS 1.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject, ASAuthorizationPublicKeyCredentialRegistration {
    open var credentialID: Data { stub() }
    open var rawClientDataJSON: Data { stub() }
    open var rawAttestationObject: Data? { stub() }
}

// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialassertion
// `class ASAuthorizationPlatformPublicKeyCredentialAssertion`
@available(iOS 15.0, macOS 12.0, tvOS 16.0, visionOS 1.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialAssertion: NSObject, ASAuthorizationPublicKeyCredentialAssertion {
    open var credentialID: Data { stub() }
    open var rawClientDataJSON: Data { stub() }
    open var rawAuthenticatorData: Data! { stub() }
    open var userID: Data! { stub() }
    open var signature: Data! { stub() }
}

// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialuserverificationpreference
// `struct ASAuthorizationPublicKeyCredentialUserVerificationPreference` (a string-backed constant set)
@available(iOS 15.0, macOS 12.0, tvOS 16.0, visionOS 1.0, *)
public struct ASAuthorizationPublicKeyCredentialUserVerificationPreference: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
    public let rawValue: String
    // .../init(rawValue:)
    public init(rawValue: String) { self.rawValue = rawValue }
    // .../init(_:)
    public init(_ rawValue: String) { self.rawValue = rawValue }
    // .../required, .../preferred, .../discouraged
    public static let required = Self(rawValue: "required")
    public static let preferred = Self(rawValue: "preferred")
    public static let discouraged = Self(rawValue: "discouraged")
}

// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialregistrationrequest
@available(iOS 15.0, macOS 12.0, tvOS 16.0, visionOS 1.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest {
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialregistrationrequest/userverificationpreference
    // Declared by the protocol ASAuthorizationPublicKeyCredentialRegistrationRequest, which this class adopts.
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference = .preferred
}

// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialassertionrequest
@available(iOS 15.0, macOS 12.0, tvOS 16.0, visionOS 1.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest {
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialassertionrequest/userverificationpreference
    // Declared by the protocol ASAuthorizationPublicKeyCredentialAssertionRequest, which this class adopts.
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference = .preferred
}

// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialprovider
// `class ASAuthorizationPlatformPublicKeyCredentialProvider`
@available(iOS 15.0, macOS 12.0, tvOS 16.0, visionOS 1.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialProvider: NSObject {
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialprovider/init(relyingpartyidentifier:)
    public init(relyingPartyIdentifier: String) {}
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialprovider/createcredentialregistrationrequest(challenge:name:userid:)
    open func createCredentialRegistrationRequest(
        challenge: Data, name: String, userID: Data
    ) -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest { stub() }
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialprovider/createcredentialassertionrequest(challenge:)
    open func createCredentialAssertionRequest(challenge: Data) -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest { stub() }
}
#endif
