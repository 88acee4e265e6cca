import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit

/// One process's view of a ``SimulatedDeviceKeychain``, answering as `SecItem*`
/// does for a process with these entitlements: for testing
/// ``KeychainSessionStore`` without the Security framework.
///
/// Every rule (groups, the default group, accessibility while locked, -34018)
/// is the device's, documented there. On top of them a test can script: answer
/// any `OSStatus` on the next calls of an operation; run another process's
/// action just before a call; plant raw bytes the store cannot decode; count calls.
///
/// ```swift
/// let device = SimulatedDeviceKeychain()
/// let app = device.process(accessGroups: ["TEAMID.com.example.app"])
/// let widget = device.process(accessGroups: ["TEAMID.com.example.shared", "TEAMID.com.example.app.widget"])
/// app.failNext(.copy, with: .interactionNotAllowed)
/// app.beforeNext(.add) { $0.plant(Data("theirs".utf8), for: item) }  // another process wins the race
/// ```
public final class InMemoryKeychain: KeychainAPI, @unchecked Sendable {
    /// The calls of ``KeychainAPI``.
    public enum Operation: Sendable, Hashable, CaseIterable {
        case add, update, copy, delete, find
    }

    /// What the keychain holds for one item.
    public typealias StoredItem = SimulatedDeviceKeychain.StoredItem
    private typealias Key = SimulatedDeviceKeychain.Key

    /// The groups of an app without Keychain Sharing: its app ID.
    public static let defaultAccessGroups = ["TEAMID.com.example.app"]

    /// The device keychain this process sees.
    public let device: SimulatedDeviceKeychain
    /// This process's access groups, in the order the keychain uses them (the first is the default).
    public let accessGroups: [String]

    // Everything below is read and written under `lock`.
    private let lock = NSLock()
    private var scripted: [Operation: [KeychainStatus]] = [:]
    private var hooks: [Operation: [@Sendable (InMemoryKeychain) -> Void]] = [:]
    private var counts: [Operation: Int] = [:]
    private var callsBeforeDeath: Int?

    /// - Parameters:
    ///   - device: the keychain shared with other processes (a new device by default).
    ///   - accessGroups: this process's entitlements; empty for a process without any.
    public init(device: SimulatedDeviceKeychain = SimulatedDeviceKeychain(), accessGroups: [String] = defaultAccessGroups) {
        self.device = device
        self.accessGroups = accessGroups
    }

    // MARK: - Scripting

    /// Makes the next `times` calls of `operation` answer `status` and change nothing.
    public func failNext(_ operation: Operation, with status: KeychainStatus, times: Int = 1) {
        lock.withLock { scripted[operation, default: []] += Array(repeating: status, count: times) }
    }

    /// Runs `action` just before the next call of `operation`: another process acting in between.
    public func beforeNext(_ operation: Operation, run action: @escaping @Sendable (InMemoryKeychain) -> Void) {
        lock.withLock { hooks[operation, default: []].append(action) }
    }

    /// Kills this process after `calls` more keychain calls: every later call
    /// answers `errSecNotAvailable` and changes nothing, as a process that no
    /// longer runs does. A relaunch is a new process on the same ``device``.
    public func kill(afterCalls calls: Int) {
        lock.withLock { callsBeforeDeath = calls }
    }

    /// Restarts the device and leaves it before its first unlock: every call
    /// answers `status` (`.interactionNotAllowed`, or `.itemNotFound` as iOS 15
    /// and later answer) until ``unlock()``.
    public func lockBeforeFirstUnlock(answering status: KeychainStatus = .interactionNotAllowed) {
        device.restart(answering: status)
    }

    /// The person unlocks the device: items are readable again.
    public func unlock() {
        device.unlock()
    }

    // MARK: - Inspecting

    /// Writes raw bytes into an item, as another process or an older version
    /// would, whatever the lock state; an item without a group lands in this process's default group.
    public func plant(_ data: Data, for item: KeychainItem) {
        let group = item.accessGroup ?? accessGroups.first ?? ""
        let key = Key(accessGroup: group, service: item.service, account: item.account)
        device.lock.withLock { device.items[key] = StoredItem(data: data, accessibility: item.accessibility) }
    }

    /// What is stored for `item`, whatever the lock state: the first match
    /// in this process's groups when `item` names none.
    public func storedItem(_ item: KeychainItem) -> StoredItem? {
        device.lock.withLock { matches(item, in: device.items).first.flatMap { device.items[$0] } }
    }

    /// The account names of every item in this process's groups, sorted.
    public var accounts: [String] {
        device.lock.withLock { device.items.keys.filter { accessGroups.contains($0.accessGroup) }.map(\.account).sorted() }
    }

    /// Every item on the device, with its group, whatever the entitlements.
    public var allItems: [KeychainItem] {
        device.lock.withLock {
            device.items.map {
                KeychainItem(service: $0.key.service, account: $0.key.account, accessGroup: $0.key.accessGroup, accessibility: $0.value.accessibility)
            }.sorted { ($0.accessGroup ?? "", $0.service, $0.account) < ($1.accessGroup ?? "", $1.service, $1.account) }
        }
    }

    /// How many times `operation` was called, scripted answers included.
    public func count(_ operation: Operation) -> Int {
        lock.withLock { counts[operation, default: 0] }
    }

    // MARK: - KeychainAPI

    /// Each simulated device is its own keychain: processes of one device share a lock name, other devices do not.
    public var processLockNamespace: String { "simulated device \(ObjectIdentifier(device).hashValue)" }

    public func add(_ item: KeychainItem, data: Data) -> KeychainStatus {
        perform(.add, item) { items, scope in
            // An add without a group lands in the first group the process has (the kSecAttrAccessGroup reference).
            let key = Key(accessGroup: scope.groups[0], service: item.service, account: item.account)
            if let blocked = writeBlocked(item, scope) { return blocked }
            guard items[key] == nil else { return .duplicateItem }
            items[key] = StoredItem(data: data, accessibility: item.accessibility)
            return .success
        }
    }

    public func update(_ item: KeychainItem, data: Data) -> KeychainStatus {
        perform(.update, item) { items, scope in
            let found = matches(item, in: items, scope: scope.groups)
            if let blocked = reachability(of: found, in: items, scope) { return blocked }
            guard !found.isEmpty else { return .itemNotFound }
            // Writing under a class needs that class's key: moving an item to a class locked now is refused
            // as an add of that class is (Apple Platform Security, "Keychain data protection classes").
            if let blocked = writeBlocked(item, scope) { return blocked }
            // SecItemUpdate changes every item the query matches.
            for key in found { items[key] = StoredItem(data: data, accessibility: item.accessibility) }
            return .success
        }
    }

    public func copyData(_ item: KeychainItem) -> (status: KeychainStatus, data: Data?) {
        var data: Data?
        let status = perform(.copy, item) { items, scope in
            let found = matches(item, in: items, scope: scope.groups)
            if let blocked = reachability(of: found, in: items, scope) { return blocked }
            guard let first = found.first else { return .itemNotFound }
            data = items[first]?.data
            return .success
        }
        return (status, status == .success ? data : nil)
    }

    public func findItems(_ item: KeychainItem) -> (status: KeychainStatus, items: [KeychainItem]) {
        var result: [KeychainItem] = []
        let status = perform(.find, item) { items, scope in
            let found = matches(item, in: items, scope: scope.groups)
            if let blocked = reachability(of: found, in: items, scope) { return blocked }
            guard !found.isEmpty else { return .itemNotFound }
            result = found.map {
                // The file-based keychain has no access groups: its items come back without one.
                KeychainItem(
                    service: $0.service, account: $0.account, accessGroup: scope.isFileBased ? nil : $0.accessGroup,
                    accessibility: items[$0]?.accessibility ?? item.accessibility,
                    usesDataProtectionKeychain: !scope.isFileBased)
            }
            return .success
        }
        return (status, status == .success ? result : [])
    }

    public func delete(_ item: KeychainItem) -> KeychainStatus {
        perform(.delete, item) { items, scope in
            let found = matches(item, in: items, scope: scope.groups)
            if let blocked = reachability(of: found, in: items, scope) { return blocked }
            guard !found.isEmpty else { return .itemNotFound }
            // SecItemDelete deletes every item the query matches.
            for key in found { items.removeValue(forKey: key) }
            return .success
        }
    }

    // MARK: - Rules

    /// Where a call reaches: the groups it may touch, and whether it is the Mac's file-based keychain.
    struct Scope {
        let groups: [String]
        let isFileBased: Bool
    }

    /// What a call on `item` (an add if `isAdd`) may touch, or the status refusing it: a group the
    /// process lacks or no entitlement at all.
    private func scope(of item: KeychainItem, isAdd: Bool) -> Result<Scope, KeychainStatusError> {
        // The file-based login keychain (a Mac, without kSecUseDataProtectionKeychain) has no access groups:
        // it ignores kSecAttrAccessGroup and needs no entitlement (TN3137; kSecUseDataProtectionKeychain).
        if device.hasFileBasedKeychain && !item.usesDataProtectionKeychain {
            return .success(Scope(groups: [SimulatedDeviceKeychain.fileBasedGroup], isFileBased: true))
        }
        // No entitlement at all: -34018 on every call (TN3137; errSecMissingEntitlement).
        guard !accessGroups.isEmpty else { return .failure(KeychainStatusError(status: .missingEntitlement)) }
        guard let group = item.accessGroup else { return .success(Scope(groups: accessGroups, isFileBased: false)) }
        if accessGroups.contains(group) { return .success(Scope(groups: [group], isFileBased: false)) }
        // A group the process does not hold is refused, never searched: -34018 from Apple's implementation,
        // "not found" by Apple's page on kSecAttrAccessGroup (for a search); the device says which.
        return .failure(KeychainStatusError(status: isAdd ? .missingEntitlement : device.foreignGroupAnswer))
    }

    /// The locked answer when writing under `item`'s class is refused now: its key is not available.
    private func writeBlocked(_ item: KeychainItem, _ scope: Scope) -> KeychainStatus? {
        guard !scope.isFileBased, let blocked = device.outOfReach(item.accessibility) else { return nil }
        return blocked == .itemNotFound ? .interactionNotAllowed : blocked
    }

    /// The keys `item` matches in `scope` (every group this process holds by default), in group order.
    private func matches(_ item: KeychainItem, in items: [Key: StoredItem], scope: [String]? = nil) -> [Key] {
        let groups = scope ?? (item.accessGroup.map { [$0] } ?? accessGroups)
        return groups.map { Key(accessGroup: $0, service: item.service, account: item.account) }.filter { items[$0] != nil }
    }

    /// The locked answer when any matched item is out of reach now (or the device was never unlocked).
    private func reachability(of found: [Key], in items: [Key: StoredItem], _ scope: Scope) -> KeychainStatus? {
        // The login keychain is unlocked while the user is logged in; accessibility does not apply to it.
        if scope.isFileBased { return nil }
        if device.isBeforeFirstUnlock { return device.outOfReach(nil) }
        for key in found {
            if let blocked = device.outOfReach(items[key]?.accessibility) { return blocked }
        }
        return nil
    }

    /// Counts the call, runs a hook outside the locks, then answers a scripted
    /// status, the entitlement refusal, or what `body` does to the device's items.
    private func perform(
        _ operation: Operation, _ item: KeychainItem,
        _ body: (inout [Key: StoredItem], Scope) -> KeychainStatus
    ) -> KeychainStatus {
        let dead: Bool = lock.withLock {
            guard let left = callsBeforeDeath else { return false }
            if left <= 0 { return true }
            callsBeforeDeath = left - 1
            return false
        }
        if dead { return .notAvailable }
        let hook: (@Sendable (InMemoryKeychain) -> Void)? = lock.withLock {
            counts[operation, default: 0] += 1
            guard var pending = hooks[operation], !pending.isEmpty else { return nil }
            let first = pending.removeFirst()
            hooks[operation] = pending
            return first
        }
        hook?(self)
        let script: KeychainStatus? = lock.withLock {
            guard var pending = scripted[operation], !pending.isEmpty else { return nil }
            let status = pending.removeFirst()
            scripted[operation] = pending
            return status
        }
        if let script { return script }
        switch scope(of: item, isAdd: operation == .add) {
        case .failure(let refused):
            return refused.status
        case .success(let scope) where scope.isFileBased:
            return device.lock.withLock { body(&device.fileBasedItems, scope) }
        case .success(let scope):
            return device.lock.withLock { body(&device.items, scope) }
        }
    }
}

/// A refused call's status, as a `Result` failure.
struct KeychainStatusError: Error {
    let status: KeychainStatus
}
