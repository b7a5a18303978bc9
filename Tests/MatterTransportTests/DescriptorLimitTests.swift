import Testing

@testable import MatterTransport

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Descriptor limit: room for a fleet's sockets")
struct DescriptorLimitTests {
    @Test("a soft limit below what is needed is raised to the hard limit")
    func softLimitIsRaisedToTheHardOne() throws {
        let limit = DescriptorLimit(soft: 1024, hard: 524_288)
        #expect(try limit.raised(toHold: 10_064) == DescriptorLimit(soft: 524_288, hard: 524_288))
        // Enough already, but still below the hard limit: raised too (headroom for what comes later).
        #expect(try limit.raised(toHold: 100) == DescriptorLimit(soft: 524_288, hard: 524_288))
        #expect(try limit.raised(toHold: 524_288) == DescriptorLimit(soft: 524_288, hard: 524_288))
    }

    @Test("a soft limit at the hard limit stays")
    func softLimitAtTheHardOneStays() throws {
        let limit = DescriptorLimit(soft: 20_000, hard: 20_000)
        #expect(try limit.raised(toHold: 10_064) == limit)
    }

    @Test("more than the hard limit is refused, naming both numbers")
    func aHardLimitBelowTheNeedIsRefused() {
        let limit = DescriptorLimit(soft: 1024, hard: 4096)
        #expect(throws: DescriptorLimitError.hardLimitTooLow(needed: 10_064, hardLimit: 4096)) {
            try limit.raised(toHold: 10_064)
        }
        #expect(throws: DescriptorLimitError.hardLimitTooLow(needed: 4097, hardLimit: 4096)) {
            try limit.raised(toHold: 4097)
        }
        let message = DescriptorLimitError.hardLimitTooLow(needed: 10_064, hardLimit: 4096).description
        #expect(message.contains("10064 file descriptors are needed"))
        #expect(message.contains("at most 4096"))
    }

    @Test("under an unlimited hard limit the soft one is raised only as far as needed")
    func unlimitedHardLimit() throws {
        let limit = DescriptorLimit(soft: 1024, hard: UInt64.max)
        #expect(try limit.raised(toHold: 10_064) == DescriptorLimit(soft: 10_064, hard: UInt64.max))
        #expect(try limit.raised(toHold: 100) == limit)
    }

    @Test("ensure raises this process's soft limit, and refuses more than the hard one without changing it")
    func ensureOnThisProcess() throws {
        let before = try DescriptorLimit.current()
        try #require(before.hard != UInt64.max, "Linux caps the hard RLIMIT_NOFILE at fs.nr_open")
        let after = try DescriptorLimit.ensure(room: 64)
        #expect(after == DescriptorLimit(soft: before.hard, hard: before.hard))
        #expect(try DescriptorLimit.current() == after)
        #expect(throws: DescriptorLimitError.hardLimitTooLow(needed: before.hard + 1, hardLimit: before.hard)) {
            try DescriptorLimit.ensure(room: Int(before.hard) + 1)
        }
        #expect(try DescriptorLimit.current() == after)
    }
}
