internal import CAvahi

/// The few Avahi error codes the actor's logic tests for (the C enum stays out of the actor's files).
enum AvahiErrorCode {
    static let collision = Int32(AVAHI_ERR_COLLISION)
}
