import Foundation

extension FileSessionStore {
    /// Watches the record's folder: every process on this folder hears every
    /// save and clear of the others (docs/PROTOCOL.md, "Hearing other processes").
    public var changeNotifier: (any StoreChangeNotifier)? { FileChangeNotifier(fileURL: fileURL) }
}
