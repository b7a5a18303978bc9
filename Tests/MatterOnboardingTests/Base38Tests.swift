import MatterCore
import MatterOnboarding
import MatterTestSupport
import Testing

@Suite struct Base38Tests {
    @Test(arguments: OnboardingVectors.base38)
    func encodesVector(_ vector: OnboardingVectors.Base38Vector) {
        #expect(Base38.encode(vector.bytes) == vector.text)
        #expect(Base38.encodedLength(byteCount: vector.bytes.count) == vector.text.count)
    }

    @Test(arguments: OnboardingVectors.base38)
    func decodesVector(_ vector: OnboardingVectors.Base38Vector) throws {
        #expect(try Base38.decode(vector.text) == vector.bytes)
    }

    @Test func emptyRoundTrips() throws {
        #expect(Base38.encode([]) == "")
        #expect(try Base38.decode("") == [])
    }

    @Test func rejectsGroupValuesTooLargeForTheirBytes() throws {
        #expect(throws: OnboardingError.base38ValueOutOfRange(group: "S6", position: 0)) { try Base38.decode("S6") }
        #expect(throws: OnboardingError.base38ValueOutOfRange(group: "OE71", position: 0)) { try Base38.decode("OE71") }
        // 5 characters may encode up to 38^5 - 1, but only 3 bytes (< 2^24) are allowed.
        #expect(throws: OnboardingError.base38ValueOutOfRange(group: ".....", position: 5)) {
            try Base38.decode("00000.....")
        }
        // The largest values that fit are accepted.
        #expect(try Base38.decode("R6") == [0xFF])
        #expect(try Base38.decode("NE71") == [0xFF, 0xFF])
    }

    @Test(arguments: [1, 3, 6, 8, 11, 13])
    func rejectsLengthsLeavingAGroupOfOneOrThree(_ length: Int) {
        let text = String(repeating: "0", count: length)
        #expect(throws: OnboardingError.invalidBase38Length(length)) { try Base38.decode(text) }
    }

    @Test func acceptsLengthsThatAreMultiplesOfFive() throws {
        // matter.js' decoder wrongly rejects these.
        #expect(try Base38.decode("-N.B0-N.B0") == [0x0A, 0x0A, 0x0A, 0x0A, 0x0A, 0x0A])
    }

    @Test func rejectsCharactersOutsideTheAlphabet() {
        #expect(throws: OnboardingError.invalidBase38Character("a", position: 5)) { try Base38.decode("-N.B0a0") }
        #expect(throws: OnboardingError.invalidBase38Character(" ", position: 1)) { try Base38.decode("A 0") }
        #expect(throws: OnboardingError.invalidBase38Character("*", position: 2)) { try Base38.decode("A0*A0") }
        #expect(throws: OnboardingError.invalidBase38Character("%", position: 0)) { try Base38.decode("%0") }
        #expect(throws: OnboardingError.invalidBase38Character("é", position: 1)) { try Base38.decode("Aé") }
    }

    @Test func describesBadCharacterWithItsPosition() {
        #expect(
            OnboardingError.invalidBase38Character("a", position: 5).description
                == "invalid base38 character 'a' at position 5")
    }

    @Test func roundTripsEveryLengthUpTo40() throws {
        var generator = SplitMix64(seed: 38)
        for length in 0...40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Base38.encode(bytes)
            #expect(text.count == Base38.encodedLength(byteCount: length))
            #expect(try Base38.decode(text) == bytes)
        }
    }
}
