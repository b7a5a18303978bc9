#ifndef CAVAHI_SHIM_H
#define CAVAHI_SHIM_H
// libavahi-client, imported whole. No pkgConfig in Package.swift: avahi's .pc adds -D_REENTRANT,
// which SwiftPM rejects with a warning on every build; Debian's headers are in /usr/include anyway.
#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/address.h>
#include <avahi-common/domain.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>
#endif
