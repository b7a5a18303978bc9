import Foundation
import MatterClusters
import MatterCore
import MatterDevice

/// What the dashboard shows and offers for an endpoint, composed from the clusters it serves (not from
/// its device type, so a catalogue type or a twin gets the controls of what it has): the attributes
/// shown live, and control descriptors the page draws (docs/HTTP.md). Names, types, enum values and
/// bounds come from the generated model; this table holds only the choice of what a person moves.
enum WebControls {
    /// An attribute the page shows, read through the control plane.
    struct Shown {
        let cluster: ClusterSchema
        let attribute: AttributeSchema
    }

    /// The shown attributes and the controls of the clusters `served`.
    static func compose(_ served: [ServedCluster]) -> (shown: [Shown], controls: [[String: Any]]) {
        var shown: [Shown] = []
        var controls: [[String: Any]] = []
        for cluster in served {
            guard let schema = ClusterRegistry.standard.cluster(cluster.id) else { continue }
            let composer = Composer(schema: schema, served: cluster)
            composer.compose()
            shown += composer.shown
            controls += composer.controls
        }
        return (shown, controls)
    }

    /// One cluster's part: what it shows and the controls that fit it.
    private final class Composer {
        let schema: ClusterSchema
        let served: ServedCluster
        var shown: [Shown] = []
        var controls: [[String: Any]] = []

        init(schema: ClusterSchema, served: ServedCluster) {
            self.schema = schema
            self.served = served
        }

        func compose() {
            switch schema.id {
            case .onOff:
                toggle("OnOff", name: "toggle", labels: ["turn on", "turn off"])
            case .levelControl:
                range("CurrentLevel", name: "level", min: 1, max: 254)
            case .colorControl:
                show("ColorTempPhysicalMinMireds")
                show("ColorTempPhysicalMaxMireds")
                range(
                    "ColorTemperatureMireds", name: "color-temperature", minAttribute: "ColorTempPhysicalMinMireds",
                    maxAttribute: "ColorTempPhysicalMaxMireds")
                range("CurrentHue", name: "hue", min: 0, max: 254)
                range("CurrentSaturation", name: "saturation", min: 0, max: 254)
            case .doorLock:
                if show("LockState") {
                    set("LockState", 1, name: "lock", label: "lock")
                    set("LockState", 2, name: "unlock", label: "unlock")
                    action("jam", name: "jam", label: "jam")
                }
            case .booleanState:
                toggle("StateValue", name: "state-value", labels: ["set true", "set false"])
            case .occupancySensing:
                if show("Occupancy") {
                    set("Occupancy", 1, name: "occupied", label: "occupied")
                    set("Occupancy", 0, name: "unoccupied", label: "unoccupied")
                }
            case .airQuality:
                choice("AirQuality", name: "air-quality")
            case .switch:
                show("CurrentPosition")
                if served.featureMap & 0b10 != 0 {  // MS: momentary
                    action("press", name: "press", label: "press")
                    action("multi-press", name: "double-press", label: "press twice", fields: ["count": 2])
                    action("long-press", name: "long-press", label: "hold 2 s", fields: ["seconds": 2])
                } else if served.featureMap & 0b1 != 0 {  // LS: latching
                    action("switch", name: "latch-0", label: "position 0", fields: ["position": 0])
                    action("switch", name: "latch-1", label: "position 1", fields: ["position": 1])
                }
            case .windowCovering:
                show("OperationalStatus")
                if served.commands.contains(.WindowCovering.goToLiftPercentage) {
                    commandRange(
                        "GoToLiftPercentage", field: "liftPercent100thsValue",
                        attribute: "CurrentPositionLiftPercent100ths", name: "lift", min: 0, max: 10000)
                } else {
                    show("CurrentPositionLiftPercent100ths")
                }
                command("UpOrOpen", name: "open", label: "open")
                command("DownOrClose", name: "close", label: "close")
                command("StopMotion", name: "stop", label: "stop")
            case .thermostat:
                show("LocalTemperature")
                show("ThermostatRunningState")
                number("OccupiedHeatingSetpoint", name: "heating-setpoint")
                number("OccupiedCoolingSetpoint", name: "cooling-setpoint")
                choice("SystemMode", name: "system-mode")
            case .fanControl:
                choice("FanMode", name: "fan-mode")
                range("PercentSetting", name: "fan-percent", min: 0, max: 100)
                show("PercentCurrent")
            case .smokeCoAlarm:
                show("ExpressedState")
                choice("SmokeState", name: "smoke-state")
                choice("COState", name: "co-state")
                show("TestInProgress")
                command("SelfTestRequest", name: "self-test", label: "self-test")
            case .electricalPowerMeasurement:
                number("ActivePower", name: "active-power")
            case .energyEvse:
                choice("State", name: "ev-state")
                show("SupplyState")
                show("SessionEnergyCharged")
                command("Disable", name: "disable", label: "disable")
                command(
                    "EnableCharging", name: "enable", label: "enable charging",
                    fields: [
                        "chargingEnabledUntil": NSNull(), "minimumChargeCurrent": 6000, "maximumChargeCurrent": 32000,
                    ])
            case .rvcRunMode:
                show("CurrentMode")
                command("ChangeToMode", name: "clean", label: "clean", fields: ["newMode": 1])
                command("ChangeToMode", name: "idle", label: "idle", fields: ["newMode": 0])
            default:
                if schema.name.hasSuffix("OperationalState") {
                    show("OperationalState")
                    show("CountdownTime")
                    for name in ["Start", "Pause", "Resume", "Stop", "GoHome"] {
                        command(
                            name, name: name == "GoHome" ? "go-home" : name.lowercased(),
                            label: name == "GoHome" ? "go home" : name.lowercased())
                    }
                } else if schema.name.hasSuffix("Measurement") {
                    number("MeasuredValue", name: "measured-value")
                }
            }
        }

        /// The attribute's schema when the endpoint serves it.
        private func attribute(_ name: String) -> AttributeSchema? {
            guard let attribute = schema.attribute(named: name), served.attributes.contains(attribute.id) else {
                return nil
            }
            return attribute
        }

        /// Shows `name` when served; true then.
        @discardableResult
        private func show(_ name: String) -> Bool {
            guard let attribute = attribute(name) else { return false }
            if !shown.contains(where: { $0.attribute.id == attribute.id }) {
                shown.append(Shown(cluster: schema, attribute: attribute))
            }
            return true
        }

        private func add(_ control: [String: Any]) {
            var control = control
            control["cluster"] = schema.name
            controls.append(control)
        }

        private func toggle(_ attribute: String, name: String, labels: [String]) {
            guard show(attribute) else { return }
            add(["kind": "toggle", "name": name, "attribute": attribute, "labels": labels])
        }

        private func set(_ attribute: String, _ value: Int, name: String, label: String) {
            add(["kind": "set", "name": name, "attribute": attribute, "value": value, "label": label])
        }

        private func range(
            _ attribute: String, name: String, min: Int? = nil, max: Int? = nil, minAttribute: String? = nil,
            maxAttribute: String? = nil
        ) {
            guard show(attribute) else { return }
            var control: [String: Any] = ["kind": "range", "name": name, "attribute": attribute]
            control["min"] = min
            control["max"] = max
            control["minAttribute"] = minAttribute
            control["maxAttribute"] = maxAttribute
            add(control)
        }

        private func number(_ attribute: String, name: String) {
            guard let schema = self.attribute(attribute) else { return }
            show(attribute)
            var control: [String: Any] = ["kind": "number", "name": name, "attribute": attribute]
            control["min"] = schema.constraint?.min.map { Int($0) }
            control["max"] = schema.constraint?.max.map { Int($0) }
            control["nullable"] = schema.isNullable
            add(control)
        }

        /// A select of the attribute's enum values (a number input when the model names none).
        private func choice(_ attribute: String, name: String) {
            guard let attributeSchema = self.attribute(attribute) else { return }
            guard let typeName = attributeSchema.typeName, let values = schema.enumeration(named: typeName)?.values,
                !values.isEmpty
            else {
                number(attribute, name: name)
                return
            }
            show(attribute)
            add([
                "kind": "enum", "name": name, "attribute": attribute,
                "options": values.map { ["name": $0.name, "value": Int($0.value)] as [String: Any] },
            ])
        }

        /// A button invoking `command` (with `fields`), when the endpoint accepts it.
        private func command(_ command: String, name: String, label: String, fields: [String: Any] = [:]) {
            guard let schema = schema.command(named: command), served.commands.contains(schema.id) else { return }
            add(["kind": "command", "name": name, "command": schema.name, "label": label, "fields": fields])
        }

        /// A range invoking `command` with its value in `field`, shown as `attribute`.
        private func commandRange(
            _ command: String, field: String, attribute: String, name: String, min: Int, max: Int
        ) {
            guard let schema = schema.command(named: command), served.commands.contains(schema.id),
                show(attribute)
            else { return }
            add([
                "kind": "range", "name": name, "attribute": attribute, "command": schema.name, "field": field,
                "min": min, "max": max,
            ])
        }

        /// A button sending a control-plane action (`press`, `jam`...) with `fields`.
        private func action(_ op: String, name: String, label: String, fields: [String: Any] = [:]) {
            add(["kind": "action", "name": name, "op": op, "label": label, "fields": fields])
        }
    }
}
