// Ports of code written on Google's Home APIs for iOS: the shapes of Google's iOS sample app (its fan, door
// lock and thermostat controls), and of the structure, monitoring, events, error-handling, batching and
// decommissioning guides, written against MatterHome. What differs from the originals, each marked `PORT:`
// where it occurs:
// - Combine publishers are AsyncSequences (`for try await`), since Combine does not exist on Linux;
// - the generated enums have no `.unrecognized_` case: a value the model does not know is not reported (nil);
// - attribute names follow the specification's spelling (`requirePINForRemoteOperation`), and octet strings
//   are `[UInt8]` where the Home API takes `Data`.
import MatterClusters
import MatterHome

// MARK: - Fan (the sample app's FanControl)

/// True when the fan runs: its OnOff trait when it has one, else its fan mode.
public func fanIsOn(_ fan: FanDeviceType) -> Bool {
    if let onOffTrait = fan.traits[Matter.OnOffTrait.self] {
        return onOffTrait.attributes.onOff ?? false
    } else if let fanControlTrait = fan.matterTraits.fanControlTrait {
        return fanControlTrait.attributes.fanMode != .off
    }
    return false
}

/// Switches the fan on (high) or off, through OnOff when it has it, else through its fan mode.
public func toggleFan(_ fan: FanDeviceType) async throws {
    if let onOffTrait = fan.traits[Matter.OnOffTrait.self] {
        try await onOffTrait.toggle()
    } else if let fanControlTrait = fan.matterTraits.fanControlTrait {
        let newFanMode: Matter.FanControlTrait.FanModeEnum = fanControlTrait.attributes.fanMode == .off ? .high : .off
        _ = try await fanControlTrait.update { $0.setFanMode(newFanMode) }
    } else {
        throw HomeError.notFound("Device does not support FanControl")
    }
}

/// Sets the fan's speed as a fraction 0...1 of its range (PercentSetting).
public func setFanSpeed(_ fan: FanDeviceType, to value: Double) async throws {
    guard let fanControlTrait = fan.matterTraits.fanControlTrait, fanControlTrait.attributes.$percentSetting.isSupported
    else { throw HomeError.notFound("the fan has no PercentSetting") }
    _ = try await fanControlTrait.update { $0.setPercentSetting(UInt8(value * 100)) }
}

// MARK: - Door lock (the sample app's DoorLockControl)

/// True when the lock asks for a PIN to be operated remotely.
public func requiresPINCode(_ lock: DoorLockDeviceType) -> Bool {
    // PORT: the Home API spells it requirePinforRemoteOperation.
    lock.matterTraits.doorLockTrait?.attributes.requirePINForRemoteOperation ?? false
}

/// Locks an unlocked door and unlocks a locked one, with the PIN when one is given.
public func toggleLock(_ lock: DoorLockDeviceType, pinCode: String?) async throws {
    guard let doorLockTrait = lock.matterTraits.doorLockTrait else {
        throw HomeError.notFound("Device does not support DoorLockDeviceType")
    }
    if let pinCode {
        let pin = Array(pinCode.utf8)  // PORT: Data in the Home API.
        switch doorLockTrait.attributes.lockState {
        case .locked: try await doorLockTrait.unlockDoor { $0.setPinCode(pin) }
        default: try await doorLockTrait.lockDoor { $0.setPinCode(pin) }
        }
    } else {
        switch doorLockTrait.attributes.lockState {
        case .locked: try await doorLockTrait.unlockDoor()
        default: try await doorLockTrait.lockDoor()
        }
    }
}

/// The door's state as the sample app shows it.
public func doorStateLabel(_ state: Matter.DoorLockTrait.DoorStateEnum?) -> String {
    switch state {
    case .doorAjar?: "Door Ajar"
    case .doorClosed?: "Door Closed"
    case .doorForcedOpen?: "Door Forced Open"
    case .doorJammed?: "Door Jammed"
    case .doorOpen?: "Open"
    case .doorUnspecifiedError?: "Unspecified Error"
    default: "Unknown"
    }
}

// MARK: - Thermostat (the sample app's ThermostatTrait extension)

extension Matter.ThermostatTrait {
    /// The heating setpoint's lower limit (0.01 °C): the device's, else its absolute one, else the
    /// specification's default.
    public var minHeatSetpointLimit: Int16 {
        attributes.minHeatSetpointLimit ?? attributes.absMinHeatSetpointLimit ?? 700
    }

    /// The heating setpoint's upper limit (0.01 °C).
    public var maxHeatSetpointLimit: Int16 {
        attributes.maxHeatSetpointLimit ?? attributes.absMaxHeatSetpointLimit ?? 3000
    }

    /// The system modes the thermostat's features allow.
    public var supportedSystemModes: Set<Matter.ThermostatTrait.SystemModeEnum> {
        var modes: Set<Matter.ThermostatTrait.SystemModeEnum> = [.off]
        guard let features = attributes.featureMap else { return modes }
        if features.contains(.autoMode) && features.contains(.heating) && features.contains(.cooling) {
            modes.insert(.auto)
        }
        if features.contains(.heating) { modes.insert(.heat) }
        if features.contains(.cooling) { modes.insert(.cool) }
        return modes
    }

    /// True when `value` (0.01 °C) may be the heating setpoint: within the limits, in a heating mode.
    public func isValidHeatingSetpointUpdate(heatSetPointCentiDegrees value: Int16) -> Bool {
        guard value >= minHeatSetpointLimit, value <= maxHeatSetpointLimit else { return false }
        // PORT: `systemMode ?? .unrecognized_` in the Home API; nil here.
        guard let mode = attributes.systemMode, [.auto, .heat, .emergencyHeat].contains(mode) else { return false }
        return true
    }

    /// Writes the occupied heating setpoint (0.01 °C).
    public func setOccupiedHeatingPoint(to newValueCentiDegrees: Int16) async throws {
        _ = try await update { $0.setOccupiedHeatingSetpoint(newValueCentiDegrees) }
    }
}

// MARK: - Structures, rooms and devices (the structure guide)

/// The structures of the home as the first batch of `structures().batched()` gives them (the guide keeps
/// them in a published array).
public func loadStructures(_ home: Home) async throws -> [Structure] {
    // PORT: `.batched().receive(on:).map { Array($0) }.sink` in the guide.
    for try await batch in home.structures().batched() { return Array(batch) }
    return []
}

/// Creates a room, moves `device` into it and names the device; returns the room.
public func furnish(_ structure: Structure, room name: String, device: HomeDevice, deviceName: String) async throws
    -> Room
{
    let room = try await structure.createRoom(name: name)
    try await structure.move(device: device, to: room)
    _ = try await device.setName(deviceName)
    return room
}

/// Moves `light` into `room`, telling what went wrong as the error-handling guide does.
public func moveLight(_ light: HomeDevice, to room: Room, in structure: Structure) async -> String {
    do {
        try await structure.move(device: light, to: room)
        return "moved"
    } catch {
        // PORT: `catch let error as HomeError` in the guide; every call here throws HomeError, so Swift
        // knows the error's type (and would warn that the cast always succeeds).
        switch error.code {
        case .notFound: return "not found: \(error.message)"
        case .unavailable: return "unreachable: \(error.message)"
        default: return "\(error.code): \(error.message)"
        }
    }
}

// MARK: - Monitoring and events (the monitor and events guides)

/// The fan's mode the next time it changes (`device.types.subscribe` yields the type now, then after each
/// change).
public func nextFanMode(of device: HomeDevice, after current: Matter.FanControlTrait.FanModeEnum?) async
    -> Matter.FanControlTrait.FanModeEnum?
{
    // PORT: a Combine publisher in the Home API.
    for await fan in device.types.subscribe(FanDeviceType.self) {
        let mode = fan.matterTraits.fanControlTrait?.attributes.fanMode
        if mode != current { return mode }
    }
    return nil
}

/// The lock's next LockOperation event: its operation type.
public func nextLockOperation(_ lock: DoorLockDeviceType) async throws -> Matter.DoorLockTrait.LockOperationTypeEnum? {
    for try await event in lock.events.subscribe(Matter.DoorLockTrait.LockOperationEvent.self) {
        return event.event.lockOperationType
    }
    return nil
}

// MARK: - Batched commands and decommissioning

/// Locks the door and makes the fan identify itself for five seconds, in one batch; returns whether each
/// command succeeded.
public func lockUpForTheNight(fan: FanDeviceType, lock: DoorLockDeviceType, in home: Home) async throws -> [Bool] {
    guard let identify = fan.matterTraits.identifyTrait, let doorLock = lock.matterTraits.doorLockTrait else {
        throw HomeError.notFound("a trait is missing")
    }
    let results = await home.sendBatchedCommands { batcher in
        [batcher.add(doorLock.lockDoorBatchable()), batcher.add(identify.identifyBatchable(identifyTime: 5))]
    }
    return results.map(\.isSuccessful)
}

/// Removes the device from the home when it may be: the device forgets our fabric, the home forgets it.
public func removeDevice(_ device: HomeDevice) async throws -> Bool {
    guard await device.decommissionEligibility == .eligible else { return false }
    return try await device.decommission().contains(device.id)
}
