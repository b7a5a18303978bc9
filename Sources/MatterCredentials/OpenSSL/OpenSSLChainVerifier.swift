internal import COpenSSL

/// Owns one `X509*` parsed from DER; freed in `deinit`.
private final class X509Handle {
    let pointer: OpaquePointer

    init?(der: [UInt8]) {
        let parsed = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
        guard let parsed else { return nil }
        pointer = parsed
    }

    deinit { X509_free(pointer) }
}

/// PAA → PAI → DAC verification with OpenSSL's `X509_verify_cert`, as the SDK does it: `X509_V_FLAG_X509_STRICT`
/// and the verification time set to a given instant (the DAC's notBefore).
enum OpenSSLChainVerifier {
    /// nil when the chain verifies, else OpenSSL's reason.
    static func verify(leaf: [UInt8], intermediate: [UInt8], root: [UInt8], atUnixTime time: Int64) -> String? {
        defer { ERR_clear_error() }
        guard let leafHandle = X509Handle(der: leaf), let intermediateHandle = X509Handle(der: intermediate),
            let rootHandle = X509Handle(der: root)
        else { return "OpenSSL cannot parse a certificate of the chain" }
        guard let store = X509_STORE_new() else { return "X509_STORE_new failed" }
        defer { X509_STORE_free(store) }
        guard let untrusted = OPENSSL_sk_new_null() else { return "OPENSSL_sk_new_null failed" }
        defer { OPENSSL_sk_free(untrusted) }  // does not free the elements: the handles own them
        guard let context = X509_STORE_CTX_new() else { return "X509_STORE_CTX_new failed" }
        defer { X509_STORE_CTX_free(context) }
        return withExtendedLifetime((leafHandle, intermediateHandle, rootHandle)) { () -> String? in
            guard X509_STORE_add_cert(store, rootHandle.pointer) == 1 else { return "X509_STORE_add_cert failed" }
            guard OPENSSL_sk_push(untrusted, UnsafeRawPointer(intermediateHandle.pointer)) > 0 else {
                return "OPENSSL_sk_push failed"
            }
            guard X509_STORE_CTX_init(context, store, leafHandle.pointer, untrusted) == 1 else {
                return "X509_STORE_CTX_init failed"
            }
            let parameters = X509_STORE_CTX_get0_param(context)
            X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_X509_STRICT))
            X509_VERIFY_PARAM_set_time(parameters, time_t(time))
            guard X509_verify_cert(context) != 1 else { return nil }
            let code = X509_STORE_CTX_get_error(context)
            return X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
        }
    }
}
