import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The biometric gate hears where the app is (docs/PROTOCOL.md, "The biometric gate"):
/// in the background a due check waits without UI, and a once-per-foreground window closes.
extension SessionClient {
    func tellBiometricGate(_ event: AppLifecycleEvent) {
        guard let gate = (store as? KeychainSessionStore)?.biometricGate else { return }
        switch event {
        case .didEnterBackground: gate.appDidEnterBackground()
        case .didBecomeActive: gate.appWillEnterForeground()
        case .protectedDataDidBecomeAvailable: break  // unlocking the device is not a check
        }
    }
}
