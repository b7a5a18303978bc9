internal import COpenSSL

/// Maps OpenSSL's thread-local error queue to ``CryptoError``.
///
/// OpenSSL records failures on a per-thread queue. Every failing call is turned into an error *at the call*,
/// synchronously on the same thread (never across an `await`), and the queue is drained there so stale entries
/// cannot leak into the next report. After an *expected* failure (bad tag, bad signature) the queue is cleared.
enum OpenSSLErrorQueue {
    /// Drains the current thread's queue into an `.openSSLFailure` naming `function`.
    static func failure(_ function: String) -> CryptoError {
        .openSSLFailure(function: function, reasons: drain())
    }

    /// Removes and returns the current thread's queued error strings, oldest first.
    static func drain() -> [String] {
        var reasons: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            buffer.withUnsafeMutableBufferPointer { ERR_error_string_n(code, $0.baseAddress, $0.count) }
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return reasons
    }

    /// Discards queued errors after a failure that is an expected outcome, not a fault.
    static func clear() { ERR_clear_error() }
}

/// OpenSSL's usual convention: 1 is success; 0 or a negative value is failure.
@inline(__always)
func check(_ rc: Int32, _ function: String) throws(CryptoError) {
    guard rc == 1 else { throw OpenSSLErrorQueue.failure(function) }
}

/// Unwraps a pointer result, turning NULL into an `.openSSLFailure`.
@inline(__always)
func unwrap<T>(_ value: T?, _ function: String) throws(CryptoError) -> T {
    guard let value else { throw OpenSSLErrorQueue.failure(function) }
    return value
}

/// Converts a buffer length for an `int`-sized OpenSSL parameter.
@inline(__always)
func int32Length(_ count: Int, _ what: String) throws(CryptoError) -> Int32 {
    guard let value = Int32(exactly: count) else { throw .invalidParameter("\(what) is too long (\(count) bytes)") }
    return value
}

/// Test hook: whether OpenSSL's error queue of the calling thread holds entries. Every operation of this module
/// leaves it empty, whether it succeeds, fails with an error, or meets an expected failure.
package enum OpenSSLDiagnostics {
    package static var hasPendingErrors: Bool { ERR_peek_error() != 0 }
}
