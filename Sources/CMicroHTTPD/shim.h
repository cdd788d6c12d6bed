// Adapts libmicrohttpd's C-variadic calls, which Swift cannot make, to fixed signatures.
// Every function here only forwards; the Swift adapter (MockdHTTP) owns all the logic.
#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

typedef void *(*cmhd_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Starts a daemon with the callbacks as typed parameters and every other option in one
/// MHD_OPTION_ARRAY (which must end with MHD_OPTION_END).
static inline struct MHD_Daemon *
cmhd_start_daemon(unsigned int flags,
                  MHD_AccessHandlerCallback handler, void *handler_cls,
                  MHD_RequestCompletedCallback completed, void *completed_cls,
                  cmhd_uri_log_callback uri_log, void *uri_log_cls,
                  MHD_AcceptPolicyCallback accept_policy, void *accept_policy_cls,
                  MHD_NotifyConnectionCallback notify_connection, void *notify_connection_cls,
                  MHD_LogCallback logger, void *logger_cls,
                  struct MHD_OptionItem *options) {
    // The logger goes first: libmicrohttpd uses its own stderr logger until it sees this option.
    return MHD_start_daemon(flags, 0, accept_policy, accept_policy_cls, handler, handler_cls,
                            MHD_OPTION_EXTERNAL_LOGGER, logger, logger_cls,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify_connection, notify_connection_cls,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/// The port the daemon really bound (for --port 0).
static inline uint16_t cmhd_daemon_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The socket of a connection: for SO_LINGER resets, the connection guard's 408 and closes, and
/// a stream's check for a client that left and its cut (`shutdown`).
static inline int cmhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// Sets a connection's idle timeout in seconds: a stream cut with a reset is closed (and so
/// reset) this soon after its last byte, not at the daemon's idle timeout.
static inline void cmhd_set_connection_timeout(struct MHD_Connection *connection, unsigned int seconds) {
    MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

/// The pointer the connection-notify callback stored for this connection (mockd's record).
static inline void *cmhd_connection_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// The running library's version ("0.9.75", "1.0.1"): the library loaded may differ from the
/// header mockd was compiled against (both are libmicrohttpd.so.12).
static inline const char *cmhd_library_version(void) {
    return MHD_get_version();
}

/// MHD_OPTION_CLIENT_DISCIPLINE_LVL (libmicrohttpd 0.9.77 and later: how strictly request
/// heads are parsed) as an option item. 0.9.75's header has no such name, so its number (38,
/// fixed in the ABI) stands in there, and one source builds against either header. Only pass
/// it to a library that knows it: older ones refuse to start on an unknown option.
static inline struct MHD_OptionItem cmhd_client_discipline_option(int level) {
#if MHD_VERSION >= 0x00097701
    enum MHD_OPTION option = MHD_OPTION_CLIENT_DISCIPLINE_LVL;
#else
    enum MHD_OPTION option = (enum MHD_OPTION) 38;
#endif
    struct MHD_OptionItem item = { option, (intptr_t) level, NULL };
    return item;
}

/// Ends an upgraded connection: libmicrohttpd closes its socket and frees the connection.
static inline enum MHD_Result cmhd_upgrade_close(struct MHD_UpgradeResponseHandle *urh) {
    return MHD_upgrade_action(urh, MHD_UPGRADE_ACTION_CLOSE);
}
#endif
