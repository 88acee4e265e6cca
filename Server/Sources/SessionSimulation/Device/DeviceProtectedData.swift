import SessionKit
import SessionKitTesting

/// What `UIApplication.isProtectedDataAvailable` answers on the simulated
/// device: true only while it is unlocked ("the value … is false while the
/// device is locked", the `isProtectedDataAvailable` reference, for
/// complete protection).
///
/// The wait never sees the notification: in the prewarmed launch of row 5,
/// `protectedDataDidBecomeAvailableNotification` does not come while the
/// store waits, and the app is opened later.
struct DeviceProtectedData: ProtectedDataAvailability {
    let device: SimulatedDeviceKeychain

    var isAvailable: Bool { device.lockState == .unlocked }

    func waitUntilAvailable(timeout: Duration) async -> Bool { device.lockState == .unlocked }
}
