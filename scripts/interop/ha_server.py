#!/usr/bin/env python3
"""Runs Home Assistant's Matter Server (PyPI python-matter-server, its `matter-server` command with the
same arguments) with every fetch from the internet turned off, for scripts/test-ha.sh.

At start the server downloads PAA certificates (from the CSA's DCL and from GitHub) and vendor names
(DCL), and on request it looks for OTA updates (DCL); no command-line flag turns these off. This
launcher replaces the three fetches with no-ops and makes any aiohttp client request fail before it
connects, so the server runs on the PAA directory it is given (--paa-root-cert-dir: the test PAA of
fixtures/pki) and on its built-in vendor table. The server's own WebSocket server (aiohttp.web) and
its mDNS (zeroconf) are not affected. scripts/test-ha.sh also runs it inside a network namespace of
scripts/lan.sh, which has no route out.
"""
import logging
import sys

import aiohttp

from matter_server.server import device_controller, server, vendor_info

LOGGER = logging.getLogger("ha_server")


async def _no_paa_fetch(paa_root_cert_dir, *args, **kwargs):
    LOGGER.info("PAA download off (ha_server.py): using %s as it is", paa_root_cert_dir)
    return 0


async def _no_vendor_fetch(self):
    LOGGER.info("vendor info download off (ha_server.py): built-in and stored vendors only")


async def _no_update_check(*args, **kwargs):
    return None, None


async def _refuse(self, method, url, *args, **kwargs):
    raise aiohttp.ClientConnectionError(f"ha_server.py: outgoing HTTP is off ({method} {url})")


# The names as the server's modules imported them.
server.fetch_certificates = _no_paa_fetch
vendor_info.VendorInfo._fetch_vendors = _no_vendor_fetch
device_controller.check_for_update = _no_update_check
aiohttp.ClientSession._request = _refuse

if __name__ == "__main__":
    sys.argv[0] = "matter-server"
    # The server's entry module parses sys.argv when it is imported.
    from matter_server.server.__main__ import main

    main()
