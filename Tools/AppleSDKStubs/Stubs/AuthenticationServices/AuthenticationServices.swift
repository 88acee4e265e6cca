// Interface stub of Apple's AuthenticationServices: ASWebAuthenticationSession
// and Sign in with Apple, as Apple's pages declare them (the `@MainActor`
// protocols included). Built once per platform: ASPresentationAnchor is a
// UIWindow on iOS and an NSWindow on macOS. Type-checking only (see ../../check.sh).
import Foundation
#if SDKSTUB_OS_watchOS
// watchOS has no presentation anchor: ASPresentationAnchor and the presentation-context
// protocols are not on its pages' platform lists.
#elseif canImport(UIKit)
import UIKit
// https://developer.apple.com/documentation/authenticationservices/aspresentationanchor — `typealias ASPresentationAnchor = UIWindow` (iOS)
public typealias ASPresentationAnchor = UIWindow
#else
import AppKit
// https://developer.apple.com/documentation/authenticationservices/aspresentationanchor — `typealias ASPresentationAnchor = NSWindow`
public typealias ASPresentationAnchor = NSWindow
#endif

// MARK: ASWebAuthenticationSession

// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession — `class ASWebAuthenticationSession`
@available(iOS 12.0, macOS 10.15, tvOS 16.0, watchOS 6.2, visionOS 1.0, *)
open class ASWebAuthenticationSession: NSObject {
    // https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/completionhandler
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    // https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback
    @available(iOS 17.4, macOS 14.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
    open class Callback: NSObject {
        // https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback/customscheme(_:)
        open class func customScheme(_ customScheme: String) -> Self { stub() }
        // https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback/https(host:path:)
        open class func https(host: String, path: String) -> Self { stub() }
    }

    // https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/init(url:callbackurlscheme:completionhandler:)
    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) {}

    // https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/init(url:callback:completionhandler:)
    @available(iOS 17.4, macOS 14.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
    public init(url URL: URL, callback: Callback, completionHandler: @escaping CompletionHandler) {}

    #if !SDKSTUB_OS_watchOS
    // https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/presentationcontextprovider
    @available(iOS 13.0, macOS 10.15, *)
    open weak var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?
    #endif

    // https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/prefersephemeralwebbrowsersession
    @available(iOS 13.0, macOS 10.15, *)
    open var prefersEphemeralWebBrowserSession: Bool = false

    // https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/start()
    open func start() -> Bool { stub() }
    // https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/cancel()
    open func cancel() {}
}

#if !SDKSTUB_OS_watchOS
// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationpresentationcontextproviding
// `@MainActor protocol ASWebAuthenticationPresentationContextProviding : NSObjectProtocol`
@available(iOS 13.0, macOS 10.15, visionOS 1.0, *)
@MainActor public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
    // https://developer.apple.com/documentation/authenticationservices/aswebauthenticationpresentationcontextproviding/presentationanchor(for:)
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
}
#endif

// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsessionerror
@available(iOS 12.0, macOS 10.15, *)
public struct ASWebAuthenticationSessionError: Error, Hashable {
    // https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsessionerror/code
    public enum Code: Int, @unchecked Sendable, Equatable {
        case canceledLogin = 1
        case presentationContextNotProvided = 2
        case presentationContextInvalid = 3
    }
    public var code: Code { stub() }
    public static var canceledLogin: Code { .canceledLogin }
}

// MARK: Sign in with Apple

// https://developer.apple.com/documentation/authenticationservices/asauthorization — `class ASAuthorization`
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
open class ASAuthorization: NSObject {
    // https://developer.apple.com/documentation/authenticationservices/asauthorization/credential
    open var credential: any ASAuthorizationCredential { stub() }

    // https://developer.apple.com/documentation/authenticationservices/asauthorization/scope
    public struct Scope: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        // https://developer.apple.com/documentation/authenticationservices/asauthorization/scope/fullname
        public static let fullName = Scope(rawValue: "full_name")
        // https://developer.apple.com/documentation/authenticationservices/asauthorization/scope/email
        public static let email = Scope(rawValue: "email")
    }
}

// https://developer.apple.com/documentation/authenticationservices/asauthorizationcredential
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
public protocol ASAuthorizationCredential: NSObjectProtocol {}

// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidcredential
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
open class ASAuthorizationAppleIDCredential: NSObject, ASAuthorizationCredential {
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidcredential/identitytoken
    open var identityToken: Data? { stub() }
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidcredential/fullname
    // Set on the first authorization of the app by this Apple ID only.
    open var fullName: PersonNameComponents? { stub() }
}

// https://developer.apple.com/documentation/authenticationservices/asauthorizationrequest
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
open class ASAuthorizationRequest: NSObject {}

// https://developer.apple.com/documentation/authenticationservices/asauthorizationopenidrequest
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
open class ASAuthorizationOpenIDRequest: ASAuthorizationRequest {
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationopenidrequest/requestedscopes
    open var requestedScopes: [ASAuthorization.Scope]?
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationopenidrequest/nonce
    open var nonce: String?
}

// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidrequest
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
open class ASAuthorizationAppleIDRequest: ASAuthorizationOpenIDRequest {}

// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
open class ASAuthorizationAppleIDProvider: NSObject {
    override public init() {}
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider/createrequest()
    open func createRequest() -> ASAuthorizationAppleIDRequest { stub() }
}

// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller — `class ASAuthorizationController`
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
open class ASAuthorizationController: NSObject {
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/init(authorizationrequests:)
    public init(authorizationRequests: [ASAuthorizationRequest]) {}
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/delegate
    open weak var delegate: (any ASAuthorizationControllerDelegate)?
    #if !SDKSTUB_OS_watchOS
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/presentationcontextprovider
    open weak var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)?
    #endif
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/performrequests()
    open func performRequests() {}
}

// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerdelegate
// `@MainActor protocol ASAuthorizationControllerDelegate : NSObjectProtocol`; its methods are
// `optional` (Objective-C): the stub gives them empty default bodies instead.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
@MainActor public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerdelegate/authorizationcontroller(controller:didcompletewithauthorization:)
    func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerdelegate/authorizationcontroller(controller:didcompletewitherror:)
    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
}

extension ASAuthorizationControllerDelegate {
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {}
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {}
}

#if !SDKSTUB_OS_watchOS
// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerpresentationcontextproviding
// `@MainActor protocol ASAuthorizationControllerPresentationContextProviding : NSObjectProtocol`
@available(iOS 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, *)
@MainActor public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerpresentationcontextproviding/presentationanchor(for:)
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
}
#endif

// https://developer.apple.com/documentation/authenticationservices/asauthorizationerror
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
public struct ASAuthorizationError: Error, Hashable {
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationerror-swift.struct/code
    // An NS_ERROR_ENUM: open to new cases (not NS_CLOSED_ENUM), and check.sh builds the stubs with library
    // evolution, so, as in Xcode, a `switch` over it without `@unknown default` does not compile.
    // All eleven cases, 1000-1010, with the platforms each case's page lists.
    public enum Code: Int, @unchecked Sendable, Equatable {
        case unknown = 1000
        case canceled = 1001
        case invalidResponse = 1002
        case notHandled = 1003
        case failed = 1004
        case notInteractive = 1005
        // .../code/matchedexcludedcredential
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        case matchedExcludedCredential = 1006
        // .../code/credentialimport
        @available(iOS 18.2, macOS 15.2, visionOS 2.2, *)
        case credentialImport = 1007
        // .../code/credentialexport
        @available(iOS 18.2, macOS 15.2, visionOS 2.2, *)
        case credentialExport = 1008
        // .../code/prefersigninwithapple
        @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
        case preferSignInWithApple = 1009
        // .../code/devicenotconfiguredforpasskeycreation
        @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
        case deviceNotConfiguredForPasskeyCreation = 1010
    }
    public var code: Code { stub() }
    // https://developer.apple.com/documentation/authenticationservices/asauthorizationerror/canceled
    public static var canceled: Code { .canceled }
}

func stub() -> Never { fatalError("Apple SDK interface stub: type-checking only") }
