// Interface stub of Apple's Security framework: only the declarations SessionKit
// uses, each as Apple's page declares it. Bodies are never run; the module exists
// so `swiftc -typecheck` can check the Apple-only code on Linux (see ../../check.sh).
import Foundation

// CoreFoundation, which Security re-exports on Apple platforms. On Linux,
// Foundation does not export the CF types; these aliases stand for their
// toll-free bridged Foundation classes, so `as CFDictionary` and
// `kSecClass as String` type-check as they do against the real SDK.
// https://developer.apple.com/documentation/corefoundation/cfdictionary
public typealias CFDictionary = NSDictionary
// https://developer.apple.com/documentation/corefoundation/cfstring
public typealias CFString = NSString
// https://developer.apple.com/documentation/corefoundation/cftyperef
public typealias CFTypeRef = AnyObject
// https://developer.apple.com/documentation/kernel/osstatus — `typealias OSStatus = Int32`
public typealias OSStatus = Int32

// https://developer.apple.com/documentation/corefoundation/cfallocator — a CF class; nil is the default allocator.
public final class CFAllocator {}
// https://developer.apple.com/documentation/corefoundation/cferror — toll-free bridged with NSError.
public typealias CFError = NSError
// https://developer.apple.com/documentation/corefoundation/cfoptionflags — `typealias CFOptionFlags = UInt`
public typealias CFOptionFlags = UInt

// Access control.
// https://developer.apple.com/documentation/security/secaccesscontrol — `class SecAccessControl`
@available(iOS 2.0, macOS 10.0, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
public final class SecAccessControl {}
// https://developer.apple.com/documentation/security/secaccesscontrolcreateflags — `struct SecAccessControlCreateFlags`
// (an OptionSet over CFOptionFlags, with Security's values).
@available(iOS 8.0, macOS 10.10, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
public struct SecAccessControlCreateFlags: OptionSet, Sendable {
    public let rawValue: CFOptionFlags
    public init(rawValue: CFOptionFlags) { self.rawValue = rawValue }
    // https://developer.apple.com/documentation/security/secaccesscontrolcreateflags/userpresence
    public static var userPresence: SecAccessControlCreateFlags { Self(rawValue: 1 << 0) }
    // https://developer.apple.com/documentation/security/secaccesscontrolcreateflags/biometryany
    @available(iOS 11.3, macOS 10.13.4, tvOS 11.3, watchOS 4.3, visionOS 1.0, *)
    public static var biometryAny: SecAccessControlCreateFlags { Self(rawValue: 1 << 1) }
    // https://developer.apple.com/documentation/security/secaccesscontrolcreateflags/biometrycurrentset
    @available(iOS 11.3, macOS 10.13.4, tvOS 11.3, watchOS 4.3, visionOS 1.0, *)
    public static var biometryCurrentSet: SecAccessControlCreateFlags { Self(rawValue: 1 << 3) }
}
// https://developer.apple.com/documentation/security/secaccesscontrolcreatewithflags(_:_:_:_:)
@available(iOS 8.0, macOS 10.10, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? { stub() }
// https://developer.apple.com/documentation/security/ksecattraccesscontrol — `let kSecAttrAccessControl: CFString`
@available(iOS 8.0, macOS 10.10, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = "accc"
// https://developer.apple.com/documentation/security/ksecuseauthenticationcontext — `let kSecUseAuthenticationContext: CFString`
@available(iOS 9.0, macOS 10.11, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
nonisolated(unsafe) public let kSecUseAuthenticationContext: CFString = "u_AuthCtx"

// Item functions. Imported C functions: nonisolated, callable from any thread.
// https://developer.apple.com/documentation/security/secitemadd(_:_:)
@available(iOS 2.0, macOS 10.6, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { stub() }
// https://developer.apple.com/documentation/security/secitemupdate(_:_:)
@available(iOS 2.0, macOS 10.6, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus { stub() }
// https://developer.apple.com/documentation/security/secitemcopymatching(_:_:)
@available(iOS 2.0, macOS 10.6, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { stub() }
// https://developer.apple.com/documentation/security/secitemdelete(_:)
@available(iOS 2.0, macOS 10.6, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
public func SecItemDelete(_ query: CFDictionary) -> OSStatus { stub() }

// Keys and values: `let kSec…: CFString` on each page. They are imported C
// constants, which Swift 6 does not check for isolation; `nonisolated(unsafe)`
// gives a Swift-declared global the same standing.
// https://developer.apple.com/documentation/security/ksecclass
nonisolated(unsafe) public let kSecClass: CFString = "class"
// https://developer.apple.com/documentation/security/ksecclassgenericpassword
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
// https://developer.apple.com/documentation/security/ksecattrservice
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
// https://developer.apple.com/documentation/security/ksecattraccount
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
// https://developer.apple.com/documentation/security/ksecattraccessgroup
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp"
// https://developer.apple.com/documentation/security/ksecattraccessible
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
// https://developer.apple.com/documentation/security/ksecvaluedata
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
// https://developer.apple.com/documentation/security/ksecreturndata
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
// https://developer.apple.com/documentation/security/ksecmatchlimit
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
// https://developer.apple.com/documentation/security/ksecmatchlimitone
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
// https://developer.apple.com/documentation/security/ksecmatchlimitall
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = "m_LimitAll"
// https://developer.apple.com/documentation/security/ksecreturnattributes
nonisolated(unsafe) public let kSecReturnAttributes: CFString = "r_Attributes"
// https://developer.apple.com/documentation/security/ksecusedataprotectionkeychain
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"
// https://developer.apple.com/documentation/security/ksecattraccessiblewhenunlocked
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = "ak"
// https://developer.apple.com/documentation/security/ksecattraccessiblewhenunlockedthisdeviceonly
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
// https://developer.apple.com/documentation/security/ksecattraccessibleafterfirstunlock
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck"
// https://developer.apple.com/documentation/security/ksecattraccessibleafterfirstunlockthisdeviceonly
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
// https://developer.apple.com/documentation/security/ksecattraccessiblewhenpasscodesetthisdeviceonly
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"

// https://developer.apple.com/documentation/security/errsecsuccess (and the other result codes)
public var errSecSuccess: OSStatus { 0 }
public var errSecItemNotFound: OSStatus { -25300 }
public var errSecDuplicateItem: OSStatus { -25299 }
public var errSecInteractionNotAllowed: OSStatus { -25308 }

func stub() -> Never { fatalError("Apple SDK interface stub: type-checking only") }
