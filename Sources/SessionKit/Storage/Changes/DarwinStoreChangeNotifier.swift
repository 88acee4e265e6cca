import Foundation

/// ``StoreChangeNotifier`` on Darwin notifications (notify(3)): what a
/// ``KeychainSessionStore`` made by its Apple initialiser posts and hears.
///
/// A Darwin notification is a name and nothing else, system-wide, so nothing
/// of the session crosses it. Delivered on a dispatch queue
/// (`notify_register_dispatch`), not a run loop: a widget or an extension
/// without a running main run loop hears it too, which
/// `CFNotificationCenterGetDarwinNotifyCenter` does not promise. Pages:
/// developer.apple.com/documentation/darwinnotify/notify_post(_:) and
/// .../notify_register_dispatch(_:_:_:_:).
public struct DarwinStoreChangeNotifier: StoreChangeNotifier {
    /// The notification's name, shared by every process on the item.
    public let name: String

    public init(name: String) {
        self.name = name
    }

    /// The name for a keychain item: its group, service and account, which every process sharing it names alike.
    public static func name(for item: KeychainItem) -> String {
        "\(item.accessGroup ?? "default-group").\(item.service).\(item.account).sessionkit-changed"
    }

    #if canImport(Security)
    public func post() {
        // Best effort by design: a lost notification only delays the re-read to the next use of the store.
        _ = notify_post(name)
    }

    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        var token: Int32 = 0
        let status = notify_register_dispatch(name, &token, DispatchQueue.global(qos: .utility)) { _ in
            continuation.yield()
        }
        guard status == 0 else {
            // Not registered: nothing will be heard; the store is still read at each use.
            continuation.finish()
            return stream
        }
        let registered = token
        continuation.onTermination = { _ in _ = notify_cancel(registered) }
        return stream
    }
    #else
    // No Darwin notifications here: nothing to post, nothing to hear.
    public func post() {}

    public func changes() -> AsyncStream<Void> {
        AsyncStream { $0.finish() }
    }
    #endif
}
