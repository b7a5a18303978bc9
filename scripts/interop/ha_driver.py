#!/usr/bin/env python3
"""Drives Home Assistant's Matter Server (PyPI python-matter-server) through its own WebSocket client
(matter_server.client.MatterClient) against one matter-emu device of every type, for scripts/test-ha.sh.

The server runs on one host of the virtual LAN (scripts/interop/ha_server.py); this driver runs on
another, where it starts, stops and restarts the devices itself, and talks to the server over the
LAN through the server's WebSocket, as Home Assistant does. For each device:
  - commission_with_code (the QR code the device printed; the manual code for the plug), which returns
    once the server has interviewed the node and subscribed to it;
  - node data as the server exposes it: the endpoint-1 device type, VendorID and ProductID;
  - a command through the server (OnOff Toggle; LockDoor/UnlockDoor for the lock), and the attribute
    change arriving through the server's subscription (ATTRIBUTE_UPDATED events);
  - open_commissioning_window, then AdministratorCommissioning.WindowStatus changing in the node's
    attributes through the subscription (no fresh read); RevokeCommissioning, and back to closed;
  - the device process stopped (SIGTERM): the server marks the node unavailable (the device's ShutDown
    event); restarted (same --KVS): the node is available again and a command's change is reported
    (all devices restart together, after the per-device checks);
and, across the two on-off lights, two distinct identities (BasicInformation SerialNumber and
UniqueID, which Home Assistant's device registry keys on); then remove_node for every node (the
NODE_REMOVED event, and the device reporting that its fabric is gone). Last, a bridge of 100 bridged
devices of four types (docs/BRIDGES.md): commissioned and interviewed with every bridged endpoint (its
device type and Bridged Node); a bridged light toggled through the server; a bridged device removed
through the device's control plane (the Aggregator's PartsList reported without it) and one made
unreachable (Reachable reported false); remove_node.
Prints one [PASS]/[FAIL] line per check and ends with 'N passed, N failed'. Exit 0 when all passed.
"""
import argparse
import asyncio
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

from referee import check, node_dump, summary


# (name, type, device type ID of endpoint 1, ProductID, code to commission with)
DEVICES = [
    ("on-off-light", "on-off-light", 0x0100, 0x8001, "qrCode"),
    ("dimmable-light", "dimmable-light", 0x0101, 0x8002, "qrCode"),
    ("color-temperature-light", "color-temperature-light", 0x010C, 0x8003, "qrCode"),
    ("extended-color-light", "extended-color-light", 0x010D, 0x8004, "qrCode"),
    ("on-off-plug", "on-off-plug", 0x010A, 0x8005, "manualCode"),
    ("door-lock", "door-lock", 0x000A, 0x8006, "qrCode"),
    ("on-off-light-2", "on-off-light", 0x0100, 0x8001, "qrCode"),
]
# Devices whose stored node is served again as a twin (device --from-dump) and interviewed by the server.
TWINS = ["extended-color-light", "door-lock"]
ONOFF = "1/6/0"
LOCK_STATE = "1/257/0"
WINDOW_STATUS = "0/60/0"
DEVICE_TYPE_LIST = "1/29/0"
VENDOR_ID, PRODUCT_ID, SERIAL_NUMBER, UNIQUE_ID = "0/40/2", "0/40/4", "0/40/15", "0/40/18"
WAIT = 10  # seconds to wait for a report or an event before a check fails (not a timing assert)


class Device:
    """One `matter-emu device` process on the devices' host."""

    def __init__(self, args, index, name, kind, extra=()):
        self.args, self.name, self.kind, self.extra = args, name, kind, list(extra)
        self.port = 5541 + index
        # Distinct short discriminators (the upper 4 bits, all a manual code carries) and passcodes: a
        # code must find its own device and no other.
        self.discriminator = ((index + 1) << 8) | 0x40
        self.passcode = 20202021 + index
        self.kvs = str(pathlib.Path(args.work) / f"{name}.sqlite")
        self.log = pathlib.Path(args.work) / f"{name}.device.log"
        self.process = None
        self.starts = 0

    def start(self, factory_reset=False):
        kind = ["--type", self.kind] if self.kind else []  # a twin (--from-dump) has no type of ours
        command = [self.args.emu, "device"] + kind + [
                   "--secured-device-port", str(self.port), "--discriminator", str(self.discriminator),
                   "--passcode", str(self.passcode), "--KVS", self.kvs, "--json"] + self.extra
        if factory_reset:
            command.append("--factory-reset")
        with open(self.log, "a") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        self.starts += 1

    async def started(self, timeout=15):
        """The onboarding document of this start, or None when the device did not start."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            docs = [json.loads(line) for line in self.log.read_text().splitlines()
                    if line.startswith("{") and '"event":"started"' in line]
            if len(docs) >= self.starts:
                return docs[self.starts - 1]
            if self.process.poll() is not None:
                return None
            await asyncio.sleep(0.1)
        return None

    async def output_after(self, lines, text, timeout=WAIT):
        """True once a line after the first `lines` of the device's output contains text, else None."""
        deadline = time.monotonic() + timeout
        while True:
            if any(text in line for line in self.log.read_text().splitlines()[lines:]):
                return True
            if time.monotonic() > deadline:
                return None
            await asyncio.sleep(0.1)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def tail(self, lines=8):
        return " | ".join(self.log.read_text().splitlines()[-lines:])


class Events:
    """The server's events as its client delivers them, kept for waiting on."""

    def __init__(self, client):
        from matter_server.common.models import EventType
        self.client = client
        self.EventType = EventType
        self.changed = asyncio.Event()
        self.attributes = []   # (node_id, path, value), in arrival order
        self.availability = []  # (node_id, available)
        self.removed = []       # node_id

    def watch_node(self, node_id, paths):
        """Records ATTRIBUTE_UPDATED events of node_id for each of paths (the client's callbacks get no
        path, so one filtered subscription per path)."""
        for path in paths:
            def on_attribute(event, value, path=path):
                self.attributes.append((node_id, path, value))
                self.changed.set()
            self.client.subscribe_events(on_attribute, self.EventType.ATTRIBUTE_UPDATED, node_id, path)

        def on_node(event, node):
            self.availability.append((node_id, node.available))
            self.changed.set()
        self.client.subscribe_events(on_node, self.EventType.NODE_UPDATED, node_id)

        def on_removed(event, data):
            self.removed.append(node_id)
            self.changed.set()
        self.client.subscribe_events(on_removed, self.EventType.NODE_REMOVED, node_id)

    def mark(self):
        return len(self.attributes), len(self.availability), len(self.removed)

    async def wait(self, predicate, timeout=WAIT):
        deadline = time.monotonic() + timeout
        while True:
            found = predicate()
            if found is not None:
                return found
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), min(remaining, 0.5))  # several may wait at once
            except asyncio.TimeoutError:
                pass

    def attribute_after(self, mark, node_id, path, accept):
        for node, p, value in self.attributes[mark[0]:]:
            if node == node_id and p == path and accept(value):
                return (value,)
        return None

    def availability_after(self, mark, node_id, available):
        for node, value in self.availability[mark[1]:]:
            if node == node_id and value == available:
                return True
        return None


BRIDGED = [("on-off-light", 40, 0x0100), ("dimmable-light", 20, 0x0101), ("temperature-sensor", 20, 0x0302),
           ("contact-sensor", 20, 0x0015)]
PARTS_LIST = "1/29/3"


async def bridge_checks(client, events, args):
    """A bridge of 100: commissioned with every bridged endpoint, a bridged light toggled, one device
    removed and one made unreachable through the control plane, each seen through the subscription."""
    import chip.clusters as Clusters
    control = str(pathlib.Path(args.work) / "bridge.sock")
    mix = ",".join(f"{kind}:{count}" for kind, count, _ in BRIDGED)
    device = Device(args, len(DEVICES), "bridge", "bridge", ["--bridged", mix, "--control", control])
    device.start(factory_reset=True)
    try:
        doc = await device.started()
        if doc is None:
            check("bridge: device starts", False, device.tail())
            return
        start = time.monotonic()
        try:
            data = await asyncio.wait_for(client.commission_with_code(doc["qrCode"], network_only=True), 300)
            node_id = data.node_id
            check("bridge: commission_with_code and interview (100 bridged devices)", True,
                  f"node {node_id}, {time.monotonic() - start:.1f} s")
        except Exception as error:
            check("bridge: commission_with_code and interview (100 bridged devices)", False,
                  f"{error!r}; device: {device.tail()}")
            return
        watched = [PARTS_LIST, "2/6/0", "3/57/17"]
        events.watch_node(node_id, watched)
        attributes = client.get_node(node_id).node_data.attributes
        expected, endpoint = {}, 2
        for kind, count, type_id in BRIDGED:
            for _ in range(count):
                expected[endpoint] = type_id
                endpoint += 1
        wrong = []
        for number, type_id in expected.items():
            types = [field(entry, 0) for entry in attributes.get(f"{number}/29/0") or []]
            if type_id not in types or 0x0013 not in types or attributes.get(f"{number}/57/17") is not True:
                wrong.append(f"{number}: {types}")
        parts = attributes.get(PARTS_LIST) or []
        check("bridge: every bridged endpoint in the node data (its type and Bridged Node, Reachable)",
              not wrong and sorted(parts) == sorted(expected),
              f"PartsList of {len(parts)} endpoints; wrong: {wrong[:5]}")

        mark = events.mark()
        try:
            await asyncio.wait_for(client.send_device_command(node_id, 2, Clusters.OnOff.Commands.Toggle()), WAIT)
            toggled = await events.wait(lambda: events.attribute_after(mark, node_id, "2/6/0", lambda v: v is True))
            check("bridge: a bridged light toggled through the server, reported", toggled is not None,
                  f"reported {toggled!r}")
        except Exception as error:
            check("bridge: a bridged light toggled through the server, reported", False, repr(error))

        def ctl(request):
            result = subprocess.run([args.emu, "ctl", control, json.dumps(request)], capture_output=True, text=True)
            return result.stdout.strip() or result.stderr.strip()

        mark = events.mark()
        answer = ctl({"op": "bridge-remove", "endpoint": 5})
        removed = await events.wait(
            lambda: events.attribute_after(mark, node_id, PARTS_LIST, lambda v: isinstance(v, list) and 5 not in v))
        check("bridge: a bridged device removed on the control plane, PartsList reported without it",
              removed is not None and len(removed[0]) == len(expected) - 1,
              f"control plane {answer}; reported {len(removed[0]) if removed else 'nothing'} endpoints")
        mark = events.mark()
        answer = ctl({"op": "reachable", "endpoint": 3, "reachable": False})
        unreachable = await events.wait(lambda: events.attribute_after(mark, node_id, "3/57/17", lambda v: v is False))
        check("bridge: a bridged device made unreachable, Reachable reported false", unreachable is not None,
              f"control plane {answer}")

        mark = events.mark()
        try:
            await asyncio.wait_for(client.remove_node(node_id), WAIT)
            gone = await events.wait(lambda: True if node_id in events.removed[mark[2]:] else None)
            check("bridge: remove_node", gone is not None, f"NODE_REMOVED event: {gone is not None}")
        except Exception as error:
            check("bridge: remove_node", False, repr(error))
    finally:
        device.stop()


def field(struct, number):
    """Field `number` of a struct as the server encodes it (a dict keyed by field id)."""
    if isinstance(struct, dict):
        for key in (number, str(number)):
            if key in struct:
                return struct[key]
    return getattr(struct, ("deviceType", "revision")[number], None)


async def try_command(client, events, node_id, kind):
    """Sends the type's command through the server and waits for its change through the subscription;
    returns (ok, name of the check, detail)."""
    import chip.clusters as Clusters
    attributes = client.get_node(node_id).node_data.attributes
    mark = events.mark()
    if kind == "door-lock":
        before = attributes.get(LOCK_STATE)
        # LockState 1 is locked, 2 unlocked; Lock/UnlockDoor are timed commands.
        command = Clusters.DoorLock.Commands.UnlockDoor() if before == 1 else Clusters.DoorLock.Commands.LockDoor()
        want = 2 if before == 1 else 1
        await asyncio.wait_for(client.send_device_command(node_id, 1, command, timed_request_timeout_ms=5000), WAIT)
        got = await events.wait(lambda: events.attribute_after(mark, node_id, LOCK_STATE, lambda v: v == want))
        return (got is not None, f"{type(command).__name__} reported through the subscription",
                f"LockState {before} -> {got[0] if got else 'no report'}")
    before = client.get_node(node_id).get_attribute_value(1, None, Clusters.OnOff.Attributes.OnOff)
    await asyncio.wait_for(client.send_device_command(node_id, 1, Clusters.OnOff.Commands.Toggle()), WAIT)
    got = await events.wait(lambda: events.attribute_after(mark, node_id, ONOFF, lambda v: v == (not before)))
    return got is not None, "Toggle reported through the subscription", f"OnOff {before} -> {got[0] if got else 'no report'}"


async def command_reported(client, events, node_id, kind, label):
    try:
        ok, name, detail = await try_command(client, events, node_id, kind)
        return check(f"{label}: {name}", ok, detail)
    except Exception as error:
        return check(f"{label}: command reported through the subscription", False, repr(error))


async def restart(client, events, device, node_id, timeout=120):
    """Stops the device (SIGTERM) and starts it again on the same state file: the server should mark
    the node unavailable (the device's BasicInformation ShutDown event comes through the subscription;
    the server then resubscribes at once), and the node be available again, its command reported."""
    mark = events.mark()
    device.stop()
    went = await events.wait(lambda: events.availability_after(mark, node_id, False), timeout=WAIT)
    check(f"{device.name}: stop, the server marks the node unavailable (ShutDown event)", went is not None)
    device.start()
    if await device.started() is None:
        check(f"{device.name}: restart, node back", False, f"the device did not start again: {device.tail()}")
        return
    # Back: available, and a command through the server changes an attribute that the subscription
    # reports. Without a ShutDown event the server notices the restart only by its subscription's
    # liveness timeout (about 60 s), hence the patience here.
    start, deadline, detail = time.monotonic(), time.monotonic() + timeout, "never available"
    while time.monotonic() < deadline:
        if client.get_node(node_id).available:
            try:
                ok, name, detail = await try_command(client, events, node_id, device.kind)
                if ok:
                    check(f"{device.name}: restart, node back (available, {name})", True,
                          f"{detail}, after {time.monotonic() - start:.0f} s")
                    return
            except Exception as error:
                detail = repr(error)
        await asyncio.sleep(2)
    check(f"{device.name}: restart, node back (available, command reported through the subscription)", False,
          f"within {timeout} s: {detail}")


async def twin_checks(client, args, nodes):
    """Issue 31: the node the server stored for a device, saved in the server's own format, served again by
    `matter-emu device --from-dump`; the server commissions and interviews the twin. Both stored nodes are
    written to the work directory (NAME.recorded.json, NAME.twin.json), which the suite compares."""
    for index, name in enumerate(TWINS):
        node_id = nodes.get(name)
        if node_id is None:
            check(f"twin of {name}: commissioned and interviewed", False, "the original was not commissioned")
            continue
        recorded = pathlib.Path(args.work) / f"{name}.recorded.json"
        recorded.write_text(node_dump(node_id, client.get_node(node_id).node_data.attributes))
        twin = Device(args, len(DEVICES) + 1 + index, f"twin-{name}", None, ["--from-dump", str(recorded)])
        twin.start(factory_reset=True)
        try:
            doc = await twin.started()
            if doc is None:
                check(f"twin of {name}: commissioned and interviewed", False, twin.tail())
                continue
            start = time.monotonic()
            data = await asyncio.wait_for(client.commission_with_code(doc["manualCode"], network_only=True), 180)
            (pathlib.Path(args.work) / f"{name}.twin.json").write_text(node_dump(data.node_id, client.get_node(data.node_id).node_data.attributes))
            check(f"twin of {name}: commissioned and interviewed", True,
                  f"node {data.node_id}, {time.monotonic() - start:.1f} s")
            await asyncio.wait_for(client.remove_node(data.node_id), WAIT)
        except Exception as error:
            check(f"twin of {name}: commissioned and interviewed", False, f"{error!r}; device: {twin.tail()}")
        finally:
            twin.stop()


async def one_device(client, events, device, spec, doc):
    """Commissions one device and runs its checks; returns its node ID, or None."""
    import chip.clusters as Clusters
    name, kind, device_type, product_id, code_field = spec
    code = doc[code_field]
    start = time.monotonic()
    try:
        data = await asyncio.wait_for(client.commission_with_code(code, network_only=True), 180)
        node_id = data.node_id
        check(f"{name}: commission_with_code ({code_field}) and interview", True,
              f"node {node_id}, {time.monotonic() - start:.1f} s")
    except Exception as error:
        check(f"{name}: commission_with_code ({code_field}) and interview", False, f"{error!r}; device: {device.tail()}")
        return None
    events.watch_node(node_id, [ONOFF, LOCK_STATE, WINDOW_STATUS])

    node = client.get_node(node_id)
    attributes = node.node_data.attributes
    types = [field(entry, 0) for entry in attributes.get(DEVICE_TYPE_LIST) or []]
    vendor, product = attributes.get(VENDOR_ID), attributes.get(PRODUCT_ID)
    check(f"{name}: node data (device type, vendor, product)",
          device_type in types and vendor == 0xFFF1 and product == product_id and node.available,
          f"endpoint-1 device types {[hex(t) for t in types if isinstance(t, int)]} (want {device_type:#06x}), "
          f"VendorID {vendor!r}, ProductID {product!r} (want {product_id:#06x}), available {node.available}")

    await command_reported(client, events, node_id, kind, name)

    # The commissioning window, as a second administrator would have it opened, and revoked.
    status = lambda: client.get_node(node_id).get_attribute_value(0, None, Clusters.AdministratorCommissioning.Attributes.WindowStatus)

    async def fresh():
        """WindowStatus by a fresh read through the server, after a check has been decided: for its detail,
        and to set the server's cached value to the device's (the server stores what a read returns), so
        that the revoke check waits for a report of its own change whatever the open check saw."""
        try:
            return (await asyncio.wait_for(client.read_attribute(node_id, WINDOW_STATUS), WAIT)).get(WINDOW_STATUS)
        except Exception as error:
            return repr(error)
    mark = events.mark()
    try:
        params = await asyncio.wait_for(client.open_commissioning_window(node_id), WAIT)
        opened = await events.wait(lambda: events.attribute_after(mark, node_id, WINDOW_STATUS, lambda v: v != 0))
        check(f"{name}: open_commissioning_window, WindowStatus open through the subscription",
              opened is not None and status() != 0,
              f"code {params.setup_manual_code}; reported {opened[0] if opened else 'nothing'}; "
              f"server's node attribute {status()!r}; then a fresh read: {await fresh()!r}")
    except Exception as error:
        check(f"{name}: open_commissioning_window, WindowStatus open through the subscription", False, repr(error))
    mark = events.mark()
    try:
        await asyncio.wait_for(client.send_device_command(
            node_id, 0, Clusters.AdministratorCommissioning.Commands.RevokeCommissioning(),
            timed_request_timeout_ms=5000), WAIT)
        closed = await events.wait(lambda: events.attribute_after(mark, node_id, WINDOW_STATUS, lambda v: v == 0))
        check(f"{name}: RevokeCommissioning, WindowStatus closed through the subscription",
              closed is not None and status() == 0,
              f"reported {closed[0] if closed else 'nothing'}; server's node attribute {status()!r}; "
              f"then a fresh read: {await fresh()!r}")
    except Exception as error:
        check(f"{name}: RevokeCommissioning, WindowStatus closed through the subscription", False, repr(error))

    return node_id


async def main(args):
    import aiohttp
    from matter_server.client import MatterClient

    pathlib.Path(args.work).mkdir(parents=True, exist_ok=True)
    devices = [Device(args, i, spec[0], spec[1]) for i, spec in enumerate(DEVICES)]
    docs = {}
    try:
        for device in devices:
            device.start(factory_reset=True)
        for device in devices:
            docs[device.name] = await device.started()
            if docs[device.name] is None:
                check(f"{device.name}: device starts", False, device.tail())

        async with aiohttp.ClientSession() as session:
            client = MatterClient(args.url, session)
            deadline = time.monotonic() + 60
            while True:
                try:
                    await client.connect()
                    break
                except Exception as error:
                    if time.monotonic() > deadline:
                        check("connect to the server's WebSocket", False, repr(error))
                        return
                    await asyncio.sleep(0.5)
            ready = asyncio.Event()
            listening = asyncio.create_task(client.start_listening(ready))
            await asyncio.wait_for(ready.wait(), 30)
            info = client.server_info
            print(f"server: schema {info.schema_version}, SDK {info.sdk_version}, fabric {info.fabric_id}", flush=True)
            events = Events(client)

            nodes = {}
            for device, spec in zip(devices, DEVICES):
                if docs[device.name] is not None:
                    nodes[device.name] = await one_device(client, events, device, spec, docs[device.name])

            # Restarts: all devices at once (a restart the server notices only by its subscription's
            # liveness timeout then costs that timeout once, not once per device).
            await asyncio.gather(*(restart(client, events, device, nodes[device.name])
                                   for device in devices if nodes.get(device.name) is not None))

            # Two devices of one type: two identities in Home Assistant's registry.
            a, b = nodes.get("on-off-light"), nodes.get("on-off-light-2")
            if a is not None and b is not None:
                first, second = client.get_node(a).node_data.attributes, client.get_node(b).node_data.attributes
                pairs = {label: (first.get(path), second.get(path))
                         for label, path in (("SerialNumber", SERIAL_NUMBER), ("UniqueID", UNIQUE_ID))}
                check("two on-off lights: distinct SerialNumber and UniqueID",
                      all(x is not None and x != y for x, y in pairs.values()),
                      "; ".join(f"{label} {x!r} / {y!r}" for label, (x, y) in pairs.items()))
            else:
                check("two on-off lights: distinct SerialNumber and UniqueID", False, "not both commissioned")

            await twin_checks(client, args, nodes)

            by_name = {device.name: device for device in devices}
            for name, node_id in nodes.items():
                if node_id is None:
                    continue
                mark = events.mark()
                lines = len(by_name[name].log.read_text().splitlines())
                try:
                    await asyncio.wait_for(client.remove_node(node_id), WAIT)
                    gone = await events.wait(lambda: True if node_id in events.removed[mark[2]:] else None)
                    # The server removes its fabric from the device (RemoveFabric): the device says so.
                    left = await by_name[name].output_after(lines, '"event":"fabrics","fabricIndexes":[]')
                    check(f"{name}: remove_node", gone is not None and left is not None
                          and all(n.node_id != node_id for n in client.get_nodes()),
                          f"NODE_REMOVED event: {gone is not None}; the device left the fabric: {left is not None}")
                except Exception as error:
                    check(f"{name}: remove_node", False, repr(error))

            await bridge_checks(client, events, args)
            await client.disconnect()
            listening.cancel()
    finally:
        for device in devices:
            device.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the server's WebSocket (ws://HOST:5580/ws)")
    parser.add_argument("--emu", required=True, help="the matter-emu binary")
    parser.add_argument("--work", required=True, help="directory for the devices' state files and logs")
    args = parser.parse_args()
    try:
        asyncio.run(main(args))
    except Exception as error:
        check("driver", False, repr(error))
    status = summary()
    sys.exit(status)
