#!/usr/bin/env python3
"""The control plane seen by the connectedhomeip SDK's own Python controller (PyPI
home-assistant-chip-core): commission a light and a door lock (passcode + discriminator), subscribe
to attributes and events of both (one subscription each, urgent event paths), then move the devices
from outside with `matter-emu ctl`: set the light's OnOff, jam the lock, reboot the light. Checks that
the SDK receives the OnOff report, the DoorLockAlarm event (AlarmCode 0, LockJammed) with LockState
NotFullyLocked, the light's ShutDown before the reboot, its StartUp and BootReason (SoftwareReset)
after it, and that its subscription is re-established (a later OnOff change is reported again).
Prints one [PASS]/[FAIL] line per check and ends with 'N passed, N failed'.

Run inside a network namespace with a real interface and a writable /data; scripts/interop-chip.sh
does both (case 5).
"""
import argparse
import asyncio
import json
import logging
import os
import pathlib
import subprocess
import sys
import time

from referee import check, summary


def ctl(args, socket, request):
    """One control-plane request through `matter-emu ctl`; its JSON answer."""
    result = subprocess.run([args.emu, "ctl", socket, json.dumps(request)], capture_output=True, text=True,
                            timeout=60)
    try:
        return json.loads(result.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"ok": False, "error": f"ctl exit {result.returncode}: {result.stderr.strip()}"}


class Inbox:
    """Collects what a subscription delivers (attribute values, events, resubscriptions) from the
    SDK's threads, for the driver's event loop to wait on."""

    def __init__(self, loop):
        self.loop = loop
        self.items = []
        self.changed = asyncio.Event()

    def put(self, item):
        def add():
            self.items.append(item)
            self.changed.set()
        self.loop.call_soon_threadsafe(add)

    async def wait(self, predicate, timeout):
        """The first item matching predicate (one already received counts), or None after timeout."""
        deadline = time.time() + timeout
        while True:
            for item in self.items:
                if predicate(item):
                    return item
            remaining = deadline - time.time()
            if remaining <= 0:
                return None
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), timeout=remaining)
            except asyncio.TimeoutError:
                return None


async def subscribe(ctrl, node, attributes, events, inbox, max_interval):
    sub = await ctrl.Read(node, attributes=attributes, events=events, reportInterval=(0, max_interval),
                          autoResubscribe=True)
    sub.SetAttributeUpdateCallback(lambda path, t: inbox.put(("attribute", path.AttributeType, t.GetAttribute(path))))
    sub.SetEventUpdateCallback(lambda event, t: inbox.put(("event", type(event.Data), event.Data, event.Header)))
    sub.SetResubscriptionSucceededCallback(lambda t: inbox.put(("resubscribed",)))
    sub.SetErrorCallback(lambda error, t: inbox.put(("error", error)))
    return sub


async def main(args):
    import chip.CertificateAuthority
    import chip.clusters as Clusters
    import chip.logging
    import chip.native
    from chip.ChipDeviceCtrl import DiscoveryFilterType
    from chip.ChipStack import ChipStack

    pathlib.Path(args.work).mkdir(parents=True, exist_ok=True)
    logging.basicConfig(filename=str(pathlib.Path(args.work) / "chip.log"), level=logging.DEBUG)
    chip.logging.RedirectToPythonLogging()
    chip.native.Init()
    storage = pathlib.Path(args.work) / "controller-storage.json"
    if storage.exists():
        storage.unlink()
    stack = ChipStack(persistentStoragePath=str(storage), enableServerInteractions=False)
    authorities = chip.CertificateAuthority.CertificateAuthorityManager(stack, stack.GetStorageManager())
    authorities.LoadAuthoritiesFromStorage()
    admin = authorities.NewCertificateAuthority().NewFabricAdmin(vendorId=0xFFF1, fabricId=1)
    ctrl = admin.NewController(nodeId=112233, paaTrustStorePath=str(args.paa))
    light, lock = 0x5001, 0x5002
    OnOff, DoorLock = Clusters.OnOff, Clusters.DoorLock
    Basic, Diagnostics = Clusters.BasicInformation, Clusters.GeneralDiagnostics

    for name, node, discriminator in (("light", light, args.light_discriminator),
                                      ("lock", lock, args.lock_discriminator)):
        try:
            await ctrl.CommissionOnNetwork(node, args.passcode, DiscoveryFilterType.LONG_DISCRIMINATOR, discriminator)
            check(f"commission the {name}", True)
        except Exception as error:
            check(f"commission the {name}", False, repr(error))
            return

    loop = asyncio.get_running_loop()
    light_inbox, lock_inbox = Inbox(loop), Inbox(loop)
    try:
        await subscribe(ctrl, light, [(1, OnOff.Attributes.OnOff)],
                        [(0, Basic.Events.StartUp, 1), (0, Basic.Events.ShutDown, 1),
                         (0, Diagnostics.Events.BootReason, 1)], light_inbox, args.max_interval)
        await subscribe(ctrl, lock, [(1, DoorLock.Attributes.LockState)], [(1, DoorLock.Events.DoorLockAlarm, 1)],
                        lock_inbox, args.max_interval)
        check("subscribe to attributes and events of the light and the lock", True)
    except Exception as error:
        check("subscribe to attributes and events of the light and the lock", False, repr(error))
        return

    def attribute(kind, value):
        return lambda item: item[0] == "attribute" and item[1] == kind and item[2] == value

    def event(kind, test=lambda data: True, after=-1):
        return lambda item: item[0] == "event" and item[1] == kind and item[3].EventNumber > after and test(item[2])

    answer = ctl(args, args.light_control, {"op": "set", "endpoint": 1, "cluster": "OnOff", "attribute": "OnOff",
                                            "value": True})
    got = await light_inbox.wait(attribute(OnOff.Attributes.OnOff, True), 15)
    check("ctl set OnOff: the SDK gets the attribute report", answer.get("ok") and got is not None, json.dumps(answer))

    answer = ctl(args, args.lock_control, {"op": "jam", "endpoint": 1})
    alarm = await lock_inbox.wait(event(DoorLock.Events.DoorLockAlarm, lambda data: data.alarmCode == 0), 15)
    check("ctl jam: the SDK gets DoorLockAlarm (LockJammed)", answer.get("ok") and alarm is not None,
          json.dumps(answer))
    state = await lock_inbox.wait(attribute(DoorLock.Attributes.LockState, DoorLock.Enums.DlLockState.kNotFullyLocked),
                                  15)
    check("ctl jam: the SDK gets LockState NotFullyLocked", state is not None)

    last = max((item[3].EventNumber for item in light_inbox.items if item[0] == "event"), default=-1)
    answer = ctl(args, args.light_control, {"op": "reboot"})
    check("ctl reboot the light", answer.get("ok") is True, json.dumps(answer))
    shutdown = await light_inbox.wait(event(Basic.Events.ShutDown, after=last), 15)
    check("the SDK gets ShutDown before the reboot", shutdown is not None)
    # The old subscription dies with the device's sessions; the SDK notices at its liveness timeout
    # and re-subscribes over a new CASE session, receiving the new boot's events.
    resubscribed = await light_inbox.wait(lambda item: item[0] == "resubscribed", args.resubscribe_timeout)
    check("the SDK re-establishes its subscription after the reboot", resubscribed is not None)
    startup = await light_inbox.wait(event(Basic.Events.StartUp, after=last), 30)
    check("the SDK gets StartUp after the reboot", startup is not None)
    reason = await light_inbox.wait(
        event(Diagnostics.Events.BootReason,
              lambda data: data.bootReason == Diagnostics.Enums.BootReasonEnum.kSoftwareReset, after=last), 30)
    check("the SDK gets BootReason SoftwareReset after the reboot", reason is not None,
          "" if reason else repr([item for item in light_inbox.items if item[0] == "event"][-3:]))

    seen = len(light_inbox.items)
    answer = ctl(args, args.light_control, {"op": "set", "endpoint": 1, "cluster": "OnOff", "attribute": "OnOff",
                                            "value": False})
    light_inbox.items = light_inbox.items[seen:]
    got = await light_inbox.wait(attribute(OnOff.Attributes.OnOff, False), 15)
    check("after the reboot, ctl set OnOff is reported on the new subscription", got is not None, json.dumps(answer))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--paa", required=True, help="directory of PAA certificates (*.der)")
    parser.add_argument("--emu", required=True, help="the matter-emu binary (for ctl)")
    parser.add_argument("--light-control", required=True, help="the light's --control socket")
    parser.add_argument("--lock-control", required=True, help="the lock's --control socket")
    parser.add_argument("--passcode", type=int, default=20202021)
    parser.add_argument("--light-discriminator", type=int, default=3840)
    parser.add_argument("--lock-discriminator", type=int, default=3841)
    parser.add_argument("--max-interval", type=int, default=5, help="the subscriptions' max interval ceiling")
    parser.add_argument("--resubscribe-timeout", type=int, default=90)
    parser.add_argument("--work", default="/data/chip-events")
    args = parser.parse_args()
    try:
        asyncio.run(main(args))
    except Exception as error:
        check("driver", False, repr(error))
    status = summary()
    sys.stdout.flush()
    # Leave with the SDK's stack still running: tearing it down can crash in its native code.
    os._exit(status)
