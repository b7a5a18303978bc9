internal import CLibFuzzer

#if canImport(Glibc)
    import Glibc
#endif

// Helpers shared by the libFuzzer targets in Fuzz/Targets (built only by scripts/fuzz.sh).
//
// A target decodes its input and, when the decoder accepts it, encodes the result and decodes that again:
// the second decode must succeed and give the same value. A broken invariant stops the process through
// `fuzzFailure(_:)`, which libFuzzer records as a crash with the input that caused it.

/// Hands the process to libFuzzer with `target` as the function under test; never returns.
///
/// Each target's `@main` calls this. SwiftPM links an executable's `main` to its `@main` entry point, so libFuzzer's
/// own `main` (in the `-sanitize=fuzzer` runtime) is not the one that runs; the target still exports
/// `LLVMFuzzerTestOneInput`, which that runtime references, and passes the same function here.
public func runLibFuzzer(_ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, target))
}

/// libFuzzer's input as an array (`data` may be nil when `size` is 0).
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// Reports a broken invariant and stops: libFuzzer saves the input as `crash-<sha1>`.
public func fuzzFailure(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError("fuzz invariant broken: \(message)", file: file, line: line)
}

/// Stops with `message` unless `condition` holds.
public func fuzzCheck(
    _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
) {
    if !condition { fuzzFailure(message(), file: file, line: line) }
}

/// Whether two decoded values are the same. Falls back to their reflected descriptions so that a NaN float
/// (never equal to itself) carried through a round trip bit for bit still counts as the same value.
public func sameDecoded<T: Equatable>(_ a: T, _ b: T) -> Bool {
    a == b || String(reflecting: a) == String(reflecting: b)
}

/// Runs the round trip every target performs on a value its decoder accepted: `encode(first)` must decode
/// again, to the same value, and encode to the same bytes.
public func checkRoundTrip<T: Equatable, E: Error>(
    _ first: T, name: String, encode: (T) throws -> [UInt8], decode: ([UInt8]) throws(E) -> T,
    file: StaticString = #fileID, line: UInt = #line
) {
    let encoded: [UInt8]
    do { encoded = try encode(first) } catch {
        // An encoder that can refuse (a certificate's DER form) does so with a typed error: not a bug.
        return
    }
    let second: T
    do { second = try decode(encoded) } catch {
        fuzzFailure(
            "\(name): re-decoding our own encoding failed: \(error); encoding \(hex(encoded))",
            file: file, line: line)
    }
    fuzzCheck(
        sameDecoded(first, second),
        "\(name): round trip changed the value:\n  first  \(first)\n  second \(second)", file: file, line: line)
    let again: [UInt8]
    do { again = try encode(second) } catch {
        fuzzFailure("\(name): encoding the re-decoded value failed: \(error)", file: file, line: line)
    }
    fuzzCheck(
        again == encoded, "\(name): encoding is not stable: \(hex(encoded)) then \(hex(again))",
        file: file, line: line)
}

/// Lower-case hex, for failure messages.
public func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}
