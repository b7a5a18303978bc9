/// A weak reference that may cross threads.
final class WeakAvahiDNSSD: Sendable {
    weak let value: AvahiDNSSD?
    init(_ value: AvahiDNSSD) { self.value = value }
}
