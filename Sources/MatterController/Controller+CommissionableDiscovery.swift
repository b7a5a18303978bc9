import MatterCore
import MatterDiscovery
import MatterOnboarding
import MatterSecureChannel
import MatterTransport

extension Controller {
    // MARK: Discovery and PASE

    /// The first commissionable device `locator` matches whose instance name is not in `excluding`,
    /// or nil when none answered within `timeout` (default: the discovery timeout).
    func discoverCommissionable(
        _ locator: CommissioningRequest.Locator, excluding: Set<String> = [], timeout: Duration? = nil
    ) async throws(ControllerError) -> CommissionableTarget? {
        let filter: CommissionableFilter
        var extra: [CommissionableFilter] = []
        var product: ProductID?
        switch locator {
        case .address(let direct):
            let addresses = direct.addresses.udpAddresses(port: direct.port)
            guard !addresses.isEmpty else { throw .invalidArgument("no usable address in \(direct)") }
            guard excluding.isEmpty else { return nil }
            return CommissionableTarget(
                description: direct.description, addresses: addresses, mrp: configuration.defaultPeerMRP,
                isDirect: true, instanceName: nil)
        case .commissioningMode:
            filter = .commissioningMode
        case .discriminator(let discriminator, let vendor, let productID):
            switch discriminator {
            case .long(let value): filter = .longDiscriminator(value)
            case .short(let value): filter = .shortDiscriminator(value)
            }
            if let vendor { extra.append(.vendor(vendor)) }
            product = productID
        }
        guard let browser = try await browser() else {
            throw .notFound("discovery is off: give the device's address")
        }
        let timeout = timeout ?? configuration.discoveryTimeout
        let wantedProduct = product
        let found: DiscoveredCommissionableNode?
        do {
            if let dnssd = browser as? any DNSSDBrowser {
                let filters = [filter] + extra
                let services = try await dnssd.browse(filter.query, timeout: timeout, limit: 1) { service in
                    guard !excluding.contains(service.instanceName.lowercased()),
                        let node = try? DiscoveredCommissionableNode(resolved: service), let ad = node.advertisement
                    else { return false }
                    return filters.allSatisfy { $0.matches(ad) }
                        && (wantedProduct == nil || ad.productID == wantedProduct)
                }
                found = services.first.flatMap { try? DiscoveredCommissionableNode(resolved: $0) }
            } else {
                found = try await browser.discoverCommissionable(filter, timeout: timeout, limit: excluding.count + 1)
                    .first { !excluding.contains($0.instanceName.lowercased()) }
            }
        } catch {
            throw .notFound(error.description)
        }
        guard let found else { return nil }
        let addresses = found.addresses.udpAddresses(port: found.port)
        guard !addresses.isEmpty else { throw .notFound("\(found.instanceName) advertised no usable address") }
        return CommissionableTarget(
            description: "\(found.instanceName) at " + addresses.map(\.description).joined(separator: ", "),
            addresses: addresses, mrp: MRPParameters(found.sessionParameters), isDirect: false,
            instanceName: found.instanceName.lowercased())
    }

    /// "no commissionable device with ... answered within ..." for `locator`.
    static func noDeviceMessage(_ locator: CommissioningRequest.Locator, timeout: Duration) -> String {
        var what: [String] = []
        switch locator {
        case .address(let direct): return "no usable address in \(direct)"
        case .commissioningMode: what.append(CommissionableFilter.commissioningMode.description)
        case .discriminator(let discriminator, let vendor, let product):
            switch discriminator {
            case .long(let value): what.append(CommissionableFilter.longDiscriminator(value).description)
            case .short(let value): what.append(CommissionableFilter.shortDiscriminator(value).description)
            }
            if let vendor { what.append(CommissionableFilter.vendor(vendor).description) }
            if let product { what.append("product \(product.rawValue)") }
        }
        return "no commissionable device with \(what.joined(separator: ", ")) answered within \(timeout)"
    }

    /// PASE with the device `first` names and, when it does not take the passcode (or refuses, or
    /// stays silent), with every other device the onboarding code matches, in discovery order: a
    /// manual code's short discriminator is shared by up to 256 long ones, and the SDK's
    /// SetUpCodePairer tries each candidate too. Returns the session and the device it is with.
    ///
    /// What a wrong candidate costs it: a device that refuses at PBKDFParamResponse (busy, window
    /// closed) or never answers spends nothing. A wrong passcode shows only at Pake2, when our prover
    /// checks the device's confirmation; we never send Pake3 then (we end the handshake with a status
    /// report), but the device has sent Pake2 and rightly counts one failed attempt of its 20, since
    /// it cannot tell an honest wrong candidate from a guess. Nothing in a manual code or a device's
    /// advertisement tells candidates apart before that.
    func establishPASE(
        candidatesFrom first: CommissionableTarget, request: CommissioningRequest
    ) async throws(ControllerError) -> (PASESession, CommissionableTarget) {
        var candidate = first
        var tried: Set<String> = []
        var failures: [ControllerError] = []
        while true {
            do {
                let session = try await establishPASE(candidate, passcode: request.passcode, pbkdf: request.pbkdf)
                return (session, candidate)
            } catch {
                guard let name = candidate.instanceName, error.category == .pase || error.category == .unreachable
                else { throw error }
                failures.append(error)
                tried.insert(name)
                let wait = min(configuration.discoveryTimeout, Self.nextCandidateWait)
                guard let next = try? await discoverCommissionable(request.locator, excluding: tried, timeout: wait)
                else { throw Self.summarize(failures) }
                log.notice("\(candidate.description): \(error); trying the next matching device, \(next.description)")
                candidate = next
            }
        }
    }

    /// How long PASE waits for one more device matching the code after a candidate failed.
    static let nextCandidateWait: Duration = .seconds(3)

    /// The error for every candidate having failed PASE: the one failure as it was, or, for several,
    /// a wrong passcode when any candidate showed one (else the last failure), with the count.
    static func summarize(_ failures: [ControllerError]) -> ControllerError {
        guard failures.count > 1, let last = failures.last else { return failures.first ?? .pase("no device") }
        let wrong = failures.contains { $0 == .pase("wrong setup passcode") }
        let reason: String
        switch last {
        case _ where wrong: reason = "wrong setup passcode"
        case .pase(let why), .unreachable(let why): reason = why
        default: reason = "\(last)"
        }
        let summary = "\(reason) (tried all \(failures.count) devices that match the code)"
        return wrong || last.category == .pase ? .pase(summary) : .unreachable(summary)
    }

    /// PASE with the first address that answers. A handshake lost to silence is tried again (every
    /// address, ``ControllerConfiguration/interactionRetries`` more rounds). A device busy with another
    /// or commissioning is asked again (every 0.5–2 s, within the wait it gives), for up to
    /// ``ControllerConfiguration/paseBusyPatience``: another commissioner's fail-safe, or a handshake
    /// whose initiator died (a crashed commissioner), blocks the device until it expires.
    func establishPASE(
        _ target: CommissionableTarget, passcode: UInt32, pbkdf: PBKDFParameters?
    ) async throws(ControllerError) -> PASESession {
        var silent: [String] = []
        var busySince: UInt64?
        var round = 0
        while round <= max(0, configuration.interactionRetries) {
            if round > 0, busySince == nil {
                log.info(
                    "PASE: no answer (\(silent.last ?? "")); trying again "
                        + "(\(round) of \(configuration.interactionRetries))")
            }
            var busy: UInt16?
            addresses: for address in target.addresses {
                do {
                    let result = try await PASEInitiator.establish(
                        node: node, peer: address, passcode: passcode, pbkdf: pbkdf, localMRP: configuration.localMRP,
                        peerMRP: target.mrp, timeout: configuration.responseTimeout)
                    guard let parameters = await node.secureSession(result.session) else {
                        throw ControllerError.internalFailure("the PASE session vanished")
                    }
                    return PASESession(
                        session: result.session, address: address,
                        attestationChallenge: parameters.keys.attestationChallenge)
                } catch let error as SecureChannelError {
                    switch error {
                    case .transport(let transport):
                        silent.append("\(address): \(transport)")
                        continue
                    case .wrongPasscode:
                        throw .pase("wrong setup passcode")
                    case .busy(let wait):
                        let since = busySince ?? now
                        if busySince == nil {
                            busySince = since
                            log.notice(
                                "the device is busy with another commissioning or PASE handshake (for at least "
                                    + "\(wait) ms); asking again for up to \(configuration.paseBusyPatience)")
                        }
                        let patience =
                            configuration.paseBusyPatience.components.seconds * 1000
                            + configuration.paseBusyPatience.components.attoseconds / 1_000_000_000_000_000
                        guard now &- since < UInt64(max(0, patience)) else {
                            throw .pase("the device is busy with another commissioner (retry in \(wait) ms)")
                        }
                        busy = wait
                        break addresses
                    case .commissioningWindowClosed:
                        throw .pase(
                            "the device's commissioning window is closed (it is commissioned already, or its "
                                + "window timed out): open one on a commissioner it has, e.g. "
                                + "`matter-emu pairing open-commissioning-window`")
                    case .peerReportedFailure(let report):
                        throw .pase("the device refused the handshake (\(report))")
                    default:
                        throw .pase(error.description)
                    }
                } catch let error as ControllerError {
                    throw error
                } catch {
                    throw .internalFailure("\(error)")
                }
            }
            if let wait = busy {
                await sleeper.sleep(until: now &+ UInt64(min(max(wait, 500), 2000)))
                continue  // a busy answer is an answer: not a round lost to silence
            }
            round += 1
        }
        throw .unreachable("the device did not answer PASE (" + silent.joined(separator: "; ") + ")")
    }
}
