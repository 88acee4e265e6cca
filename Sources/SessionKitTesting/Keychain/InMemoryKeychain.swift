import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit

/// A keychain in memory that answers as `SecItem*` does, for testing
/// ``KeychainSessionStore`` without the Security framework.
///
/// It keeps raw bytes, so a test can plant an item the store cannot decode;
/// it can answer any `OSStatus` on the next calls of an operation; it can
/// play the device before its first unlock; and it counts calls.
///
/// ```swift
/// let keychain = InMemoryKeychain()
/// keychain.failNext(.copy, with: .interactionNotAllowed)
/// keychain.beforeNext(.add) { $0.plant(Data("theirs".utf8), for: item) }  // another process wins the race
/// ```
///
/// Items are named by service, account and access group, as generic
/// passwords are; accessibility is stored with each item, never matched on.
/// One simplification: here an item without an access group is found only
/// without one, where the real keychain files it in the app's default group
/// and matches a query without a group against every group the app has.
public final class InMemoryKeychain: KeychainAPI, @unchecked Sendable {
    /// The four calls of ``KeychainAPI``.
    public enum Operation: Sendable, Hashable, CaseIterable {
        case add, update, copy, delete
    }

    /// What the keychain holds for one item.
    public struct StoredItem: Sendable, Hashable {
        public var data: Data
        public var accessibility: KeychainAccessibility
    }

    private struct Key: Hashable {
        let service: String
        let account: String
        let accessGroup: String?

        init(_ item: KeychainItem) {
            service = item.service
            account = item.account
            accessGroup = item.accessGroup
        }
    }

    // Everything below is read and written under `lock`.
    private let lock = NSLock()
    private var items: [Key: StoredItem] = [:]
    private var scripted: [Operation: [KeychainStatus]] = [:]
    private var hooks: [Operation: [@Sendable (InMemoryKeychain) -> Void]] = [:]
    private var counts: [Operation: Int] = [:]
    private var lockedAnswer: KeychainStatus?

    public init() {}

    // MARK: - Scripting

    /// Makes the next `times` calls of `operation` answer `status` and change nothing.
    public func failNext(_ operation: Operation, with status: KeychainStatus, times: Int = 1) {
        lock.withLock { scripted[operation, default: []] += Array(repeating: status, count: times) }
    }

    /// Runs `action` just before the next call of `operation`: another process acting in between.
    public func beforeNext(_ operation: Operation, run action: @escaping @Sendable (InMemoryKeychain) -> Void) {
        lock.withLock { hooks[operation, default: []].append(action) }
    }

    /// Plays a device restarted and not unlocked yet: every call answers
    /// `status` (`.interactionNotAllowed`, or `.itemNotFound` as some prewarmed
    /// launches see) until ``unlock()``.
    public func lockBeforeFirstUnlock(answering status: KeychainStatus = .interactionNotAllowed) {
        lock.withLock { lockedAnswer = status }
    }

    /// The person unlocks the device: items are readable again.
    public func unlock() {
        lock.withLock { lockedAnswer = nil }
    }

    // MARK: - Inspecting

    /// Writes raw bytes into an item, as another process or an older version would.
    public func plant(_ data: Data, for item: KeychainItem) {
        lock.withLock { items[Key(item)] = StoredItem(data: data, accessibility: item.accessibility) }
    }

    /// What is stored for `item`, whatever the lock state.
    public func storedItem(_ item: KeychainItem) -> StoredItem? {
        lock.withLock { items[Key(item)] }
    }

    /// The account names of every item, sorted.
    public var accounts: [String] {
        lock.withLock { items.keys.map(\.account).sorted() }
    }

    /// How many times `operation` was called, scripted answers included.
    public func count(_ operation: Operation) -> Int {
        lock.withLock { counts[operation, default: 0] }
    }

    // MARK: - KeychainAPI

    public func add(_ item: KeychainItem, data: Data) -> KeychainStatus {
        perform(.add) {
            guard $0[Key(item)] == nil else { return .duplicateItem }
            $0[Key(item)] = StoredItem(data: data, accessibility: item.accessibility)
            return .success
        }
    }

    public func update(_ item: KeychainItem, data: Data) -> KeychainStatus {
        perform(.update) {
            guard $0[Key(item)] != nil else { return .itemNotFound }
            $0[Key(item)] = StoredItem(data: data, accessibility: item.accessibility)
            return .success
        }
    }

    public func copyData(_ item: KeychainItem) -> (status: KeychainStatus, data: Data?) {
        var data: Data?
        let status = perform(.copy) {
            guard let stored = $0[Key(item)] else { return .itemNotFound }
            data = stored.data
            return .success
        }
        return (status, status == .success ? data : nil)
    }

    public func delete(_ item: KeychainItem) -> KeychainStatus {
        perform(.delete) { $0.removeValue(forKey: Key(item)) == nil ? .itemNotFound : .success }
    }

    /// Counts the call, runs a hook outside the lock, then answers a scripted
    /// status, the locked answer, or what `body` does to the items.
    private func perform(_ operation: Operation, _ body: (inout [Key: StoredItem]) -> KeychainStatus) -> KeychainStatus {
        let hook: (@Sendable (InMemoryKeychain) -> Void)? = lock.withLock {
            counts[operation, default: 0] += 1
            guard var pending = hooks[operation], !pending.isEmpty else { return nil }
            let first = pending.removeFirst()
            hooks[operation] = pending
            return first
        }
        hook?(self)
        return lock.withLock {
            if var pending = scripted[operation], !pending.isEmpty {
                let status = pending.removeFirst()
                scripted[operation] = pending
                return status
            }
            if let lockedAnswer { return lockedAnswer }
            return body(&items)
        }
    }
}
