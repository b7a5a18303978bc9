#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
// microhttpd.h needs these types declared before it (its own documentation says so).
#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/select.h>
#include <microhttpd.h>

// MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call: these fix the options
// we use. One thread per connection (a handler may block its own connection's thread while the node
// answers, and an event stream blocks in its reader), at most `connection_limit` connections, idle ones
// closed after `timeout_seconds`, `memory_limit` bytes of buffers per connection (headers included).
static inline struct MHD_Daemon *matter_mhd_start(
    unsigned int flags, const struct sockaddr *address, MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context, unsigned int connection_limit,
    unsigned int timeout_seconds, size_t memory_limit) {
    return MHD_start_daemon(
        flags, 0, NULL, NULL, handler, handler_context, MHD_OPTION_SOCK_ADDR, address, MHD_OPTION_NOTIFY_COMPLETED,
        completed, completed_context, MHD_OPTION_CONNECTION_LIMIT, connection_limit, MHD_OPTION_CONNECTION_TIMEOUT,
        timeout_seconds, MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit, MHD_OPTION_END);
}

// The port the daemon listens on (the one the kernel picked for port 0), or 0 when unknown.
static inline uint16_t matter_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// MHD_CONTENT_READER_END_OF_STREAM and _END_WITH_ERROR are casts Swift does not import.
static inline ssize_t matter_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t matter_mhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

#endif
