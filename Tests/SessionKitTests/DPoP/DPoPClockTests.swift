import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit
import SessionKitTesting
import Testing

/// `iat` comes from the client's estimate of the server's clock, never the device's (docs/DPOP.md).
/// With the planted `dpop-iat-from-device-clock` these fail: every proof is refused.
struct DPoPClockTests {
    @Test(arguments: [3.0 * 3600, -26.0 * 3600])
    func makesProofsTheServerAcceptsWhenTheDeviceClockIsHoursOff(offset: TimeInterval) async throws {
        let rig = DPoPRig.make(serverOffset: offset)
        // The first proof can only guess; the refusal's `Date` tells the server's clock, and the one retry is on time.
        _ = try await rig.signIn()
        #expect(try await rig.get("/v1/items").statusCode == 200)
        #expect(try await rig.get("/v1/items").statusCode == 200)
        let accepted = rig.server.requests.compactMap(\.proof)
        #expect(accepted.count == 3)
        let serverNow = Int(rig.server.serverNow.timeIntervalSince1970)
        #expect(accepted.allSatisfy { abs($0.iat - serverNow) <= 5 })
        #expect(rig.server.requests.filter { $0.refusal != nil }.count <= 1)
    }
}
