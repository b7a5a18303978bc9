internal import COpenSSL

/// AES-128-CCM through `EVP_CIPHER_CTX`. Lengths are validated by ``AESCCM128``.
enum OpenSSLAESCCM {
    static func seal(key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8], tagLength: Int)
        throws(CryptoError) -> [UInt8]
    {
        let cipher = try OpenSSLAlgorithms.shared.aes128CCM()
        let ctx = try unwrap(EVP_CIPHER_CTX_new(), "EVP_CIPHER_CTX_new")
        defer { EVP_CIPHER_CTX_free(ctx) }
        try check(EVP_EncryptInit_ex(ctx, cipher, nil, nil, nil), "EVP_EncryptInit_ex(cipher)")
        try check(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonce.count), nil), "EVP_CTRL_AEAD_SET_IVLEN")
        try check(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, Int32(tagLength), nil), "EVP_CTRL_AEAD_SET_TAG")
        try check(EVP_EncryptInit_ex(ctx, nil, nil, key, nonce), "EVP_EncryptInit_ex(key)")
        var outLength: Int32 = 0
        // CCM needs the total plaintext length before any associated data.
        try check(EVP_EncryptUpdate(ctx, nil, &outLength, nil, Int32(plaintext.count)), "EVP_EncryptUpdate(length)")
        if !aad.isEmpty {
            try check(EVP_EncryptUpdate(ctx, nil, &outLength, aad, Int32(aad.count)), "EVP_EncryptUpdate(aad)")
        }
        var sealed = [UInt8](repeating: 0, count: plaintext.count + tagLength)
        try sealed.withUnsafeMutableBufferPointer { (out) throws(CryptoError) in
            guard let base = out.baseAddress else { return }
            try plaintext.withUnsafeBufferPointer { (input) throws(CryptoError) in
                // An empty plaintext still needs this call: it runs the CBC-MAC over the AAD.
                try check(
                    EVP_EncryptUpdate(
                        ctx, base, &outLength, input.baseAddress ?? UnsafePointer(base),
                        Int32(input.count)), "EVP_EncryptUpdate")
            }
            var finalLength: Int32 = 0
            try check(EVP_EncryptFinal_ex(ctx, base + Int(outLength), &finalLength), "EVP_EncryptFinal_ex")
            try check(
                EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, Int32(tagLength), base + plaintext.count),
                "EVP_CTRL_AEAD_GET_TAG")
        }
        return sealed
    }

    /// Returns the plaintext, or throws `.authenticationFailed` when the tag does not verify.
    static func open(key: [UInt8], nonce: [UInt8], aad: [UInt8], sealed: [UInt8], tagLength: Int)
        throws(CryptoError) -> [UInt8]
    {
        let cipher = try OpenSSLAlgorithms.shared.aes128CCM()
        let ciphertextLength = sealed.count - tagLength
        let ctx = try unwrap(EVP_CIPHER_CTX_new(), "EVP_CIPHER_CTX_new")
        defer { EVP_CIPHER_CTX_free(ctx) }
        try check(EVP_DecryptInit_ex(ctx, cipher, nil, nil, nil), "EVP_DecryptInit_ex(cipher)")
        try check(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonce.count), nil), "EVP_CTRL_AEAD_SET_IVLEN")
        var tag = Array(sealed[ciphertextLength...])
        try check(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, Int32(tagLength), &tag), "EVP_CTRL_AEAD_SET_TAG")
        try check(EVP_DecryptInit_ex(ctx, nil, nil, key, nonce), "EVP_DecryptInit_ex(key)")
        var outLength: Int32 = 0
        try check(EVP_DecryptUpdate(ctx, nil, &outLength, nil, Int32(ciphertextLength)), "EVP_DecryptUpdate(length)")
        if !aad.isEmpty {
            try check(EVP_DecryptUpdate(ctx, nil, &outLength, aad, Int32(aad.count)), "EVP_DecryptUpdate(aad)")
        }
        // One byte of slack so the output buffer has an address even for an empty ciphertext.
        var plaintext = [UInt8](repeating: 0, count: ciphertextLength + 1)
        // For CCM the tag is verified inside this single update; there is no meaningful final step.
        let rc = sealed.withUnsafeBufferPointer { input in
            plaintext.withUnsafeMutableBufferPointer { out in
                EVP_DecryptUpdate(ctx, out.baseAddress, &outLength, input.baseAddress, Int32(ciphertextLength))
            }
        }
        guard rc == 1 else {
            OpenSSLSymmetric.cleanse(&plaintext)
            OpenSSLErrorQueue.clear()
            throw .authenticationFailed
        }
        plaintext.removeLast()
        return plaintext
    }
}
