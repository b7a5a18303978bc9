internal import CAvahi

/// What an Avahi callback reported, copied out of the C arguments (which live only for the call).
enum AvahiEvent: Sendable {
    case client(AvahiClientStatus, error: Int32)
    case group(AvahiGroupStatus, error: Int32)
    case browser(AvahiBrowseEvent)
    case resolver(AvahiResolveEvent)
}

enum AvahiClientStatus: Sendable, Equatable {
    case running, registering, collision, connecting, failure
}

enum AvahiGroupStatus: Sendable, Equatable {
    case uncommitted, registering, established, collision, failure
}

/// One (interface, protocol, instance) a browser reported.
struct AvahiBrowseItem: Sendable, Hashable {
    let interface: Int32
    let proto: Int32
    let name: String
    let type: String
    let domain: String
}

enum AvahiBrowseEvent: Sendable {
    case new(AvahiBrowseItem)
    case remove(AvahiBrowseItem)
    case allForNow
    case cacheExhausted
    case failure(Int32)
}

struct AvahiResolvedItem: Sendable {
    let interface: Int32
    let proto: Int32
    let name: String
    let hostName: String
    let address: DNSSDAddress?
    let port: UInt16
    let txt: [[UInt8]]
}

enum AvahiResolveEvent: Sendable {
    case found(AvahiResolvedItem)
    case failure(Int32)
}

/// The `userdata` of one Avahi object: a token naming the object and where to send its events.
/// Retained (`Unmanaged.passRetained`) for as long as the C object exists; released by
/// `AvahiConnection` after the object is freed. Immutable, so the poll thread may read it.
final class AvahiCallbackContext: Sendable {
    let token: UInt64
    let sink: @Sendable (UInt64, AvahiEvent) -> Void

    init(token: UInt64, sink: @escaping @Sendable (UInt64, AvahiEvent) -> Void) {
        self.token = token
        self.sink = sink
    }

    static func from(_ userdata: UnsafeMutableRawPointer?) -> AvahiCallbackContext? {
        guard let userdata else { return nil }
        return Unmanaged<AvahiCallbackContext>.fromOpaque(userdata).takeUnretainedValue()
    }
}

// The thunks below run on Avahi's poll thread (or synchronously inside the *_new call that made the
// object). They copy what they need and hand it to the context's sink, which re-dispatches onto the
// owner's queue; they never touch any other state.

func avahiClientCallback(_ client: OpaquePointer?, _ state: AvahiClientState, _ userdata: UnsafeMutableRawPointer?) {
    guard let context = AvahiCallbackContext.from(userdata) else { return }
    let status: AvahiClientStatus
    switch state {
    case AVAHI_CLIENT_S_RUNNING: status = .running
    case AVAHI_CLIENT_S_REGISTERING: status = .registering
    case AVAHI_CLIENT_S_COLLISION: status = .collision
    case AVAHI_CLIENT_CONNECTING: status = .connecting
    default: status = .failure
    }
    context.sink(context.token, .client(status, error: client.map { avahi_client_errno($0) } ?? 0))
}

func avahiEntryGroupCallback(
    _ group: OpaquePointer?, _ state: AvahiEntryGroupState, _ userdata: UnsafeMutableRawPointer?
) {
    guard let context = AvahiCallbackContext.from(userdata) else { return }
    let status: AvahiGroupStatus
    switch state {
    case AVAHI_ENTRY_GROUP_UNCOMMITED: status = .uncommitted
    case AVAHI_ENTRY_GROUP_REGISTERING: status = .registering
    case AVAHI_ENTRY_GROUP_ESTABLISHED: status = .established
    case AVAHI_ENTRY_GROUP_COLLISION: status = .collision
    default: status = .failure
    }
    let error = group.flatMap { avahi_entry_group_get_client($0) }.map { avahi_client_errno($0) } ?? 0
    context.sink(context.token, .group(status, error: error))
}

func avahiServiceBrowserCallback(
    _ browser: OpaquePointer?, _ interface: AvahiIfIndex, _ proto: AvahiProtocol, _ event: AvahiBrowserEvent,
    _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?,
    _ flags: AvahiLookupResultFlags, _ userdata: UnsafeMutableRawPointer?
) {
    guard let context = AvahiCallbackContext.from(userdata) else { return }
    func item() -> AvahiBrowseItem {
        AvahiBrowseItem(
            interface: interface, proto: proto, name: name.map { String(cString: $0) } ?? "",
            type: type.map { String(cString: $0) } ?? "", domain: domain.map { String(cString: $0) } ?? "local")
    }
    let mapped: AvahiBrowseEvent
    switch event {
    case AVAHI_BROWSER_NEW: mapped = .new(item())
    case AVAHI_BROWSER_REMOVE: mapped = .remove(item())
    case AVAHI_BROWSER_ALL_FOR_NOW: mapped = .allForNow
    case AVAHI_BROWSER_CACHE_EXHAUSTED: mapped = .cacheExhausted
    default:
        mapped = .failure(browser.flatMap { avahi_service_browser_get_client($0) }.map { avahi_client_errno($0) } ?? -1)
    }
    context.sink(context.token, .browser(mapped))
}

func avahiServiceResolverCallback(
    _ resolver: OpaquePointer?, _ interface: AvahiIfIndex, _ proto: AvahiProtocol, _ event: AvahiResolverEvent,
    _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?,
    _ hostName: UnsafePointer<CChar>?, _ address: UnsafePointer<AvahiAddress>?, _ port: UInt16,
    _ txt: UnsafeMutablePointer<AvahiStringList>?, _ flags: AvahiLookupResultFlags, _ userdata: UnsafeMutableRawPointer?
) {
    guard let context = AvahiCallbackContext.from(userdata) else { return }
    guard event == AVAHI_RESOLVER_FOUND else {
        let error = resolver.flatMap { avahi_service_resolver_get_client($0) }.map { avahi_client_errno($0) } ?? -1
        context.sink(context.token, .resolver(.failure(error)))
        return
    }
    var text: DNSSDAddress?
    if let address {
        var buffer = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
        if avahi_address_snprint(&buffer, buffer.count, address) != nil {
            let string = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            text = DNSSDAddress(string, interfaceIndex: interface >= 0 ? UInt32(interface) : 0)
        }
    }
    let item = AvahiResolvedItem(
        interface: interface, proto: proto, name: name.map { String(cString: $0) } ?? "",
        hostName: hostName.map { String(cString: $0) } ?? "", address: text, port: port,
        txt: AvahiStrings.read(txt))
    context.sink(context.token, .resolver(.found(item)))
}

/// Conversions between Swift byte strings and `AvahiStringList`.
enum AvahiStrings {
    /// Copies every string of `list`, in list order.
    static func read(_ list: UnsafeMutablePointer<AvahiStringList>?) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var node = list
        while let current = node {
            let size = avahi_string_list_get_size(current)
            if let text = avahi_string_list_get_text(current) {
                out.append(Array(UnsafeBufferPointer(start: text, count: size)))
            } else {
                out.append([])
            }
            node = avahi_string_list_get_next(current)
        }
        return out
    }

    /// Builds a list holding `strings` in order, runs `body` with it and frees it. `body` gets nil
    /// for an empty list (Avahi's empty TXT) and is not run when Avahi cannot allocate (returns nil).
    static func withList<R>(_ strings: [[UInt8]], _ body: (UnsafeMutablePointer<AvahiStringList>?) -> R) -> R? {
        var list: UnsafeMutablePointer<AvahiStringList>?
        // avahi_string_list_add_* prepends: add in reverse to keep the order.
        for string in strings.reversed() {
            let added = string.withUnsafeBufferPointer { buffer -> UnsafeMutablePointer<AvahiStringList>? in
                guard let base = buffer.baseAddress else { return avahi_string_list_add(list, "") }
                return avahi_string_list_add_arbitrary(list, base, buffer.count)
            }
            guard let added else {
                avahi_string_list_free(list)
                return nil
            }
            list = added
        }
        defer { avahi_string_list_free(list) }
        return body(list)
    }
}
