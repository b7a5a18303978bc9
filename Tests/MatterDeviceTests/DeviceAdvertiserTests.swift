import MatterDiscovery
import Testing

@testable import MatterDevice

/// The device's wished-for DNS-SD records follow its state in the order the state changed, however the
/// tasks that carry the wishes reach the advertiser.
@Suite("Device advertiser")
struct DeviceAdvertiserTests {
    @Test("an older wish that arrives last is dropped: a reopened window stays advertised")
    func olderWishArrivingLast() async throws {
        let advertiser = DeviceAdvertiser(
            advertiser: InMemoryDNSSDNetwork().makeHost(hostName: "lamp.local", addresses: []))
        // A fabric removed (no record wished yet), then the window reopened (commissionable): the
        // tickets are taken in that order on the node's queue...
        let fabricRemoved = advertiser.nextWish()
        let windowOpened = advertiser.nextWish()
        let commissionable: [DeviceAdvertiser.Key: DeviceAdvertiser.Record] = [
            .commissionable: .commissionable(CommissionableAdvertisement(longDiscriminator: 401))
        ]
        // ...and their tasks reach the advertiser the other way round.
        await advertiser.want(commissionable, wish: windowOpened)
        await advertiser.want([:], wish: fabricRemoved)
        #expect(await advertiser.wished == commissionable)
        await advertiser.stop()
    }
}
