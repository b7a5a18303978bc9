/// The rules for the setup passcode (setup PIN code): 27 bits on the wire, valid 1...99 999 998 minus
/// a list of trivial values.
public enum SetupPasscode {
    /// The valid range before the trivial values are removed.
    public static let validRange: ClosedRange<UInt32> = 1...99_999_998
    /// Passcodes the spec forbids although they are in range.
    public static let disallowed: Set<UInt32> = [
        11_111_111, 22_222_222, 33_333_333, 44_444_444, 55_555_555,
        66_666_666, 77_777_777, 88_888_888, 12_345_678, 87_654_321,
    ]
    /// Width of the passcode field in both code formats.
    public static let bitWidth = 27

    /// Throws ``OnboardingError/passcodeOutOfRange(_:)`` or ``OnboardingError/passcodeNotAllowed(_:)``.
    public static func validate(_ passcode: UInt32) throws(OnboardingError) {
        guard validRange.contains(passcode) else { throw .passcodeOutOfRange(passcode) }
        guard !disallowed.contains(passcode) else { throw .passcodeNotAllowed(passcode) }
    }

    /// True for a passcode a device may use.
    public static func isValid(_ passcode: UInt32) -> Bool {
        validRange.contains(passcode) && !disallowed.contains(passcode)
    }

    /// A random valid passcode (uniform over the valid range, retrying the disallowed values).
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> UInt32 {
        while true {
            let candidate = UInt32.random(in: validRange, using: &generator)
            if !disallowed.contains(candidate) { return candidate }
        }
    }
}
