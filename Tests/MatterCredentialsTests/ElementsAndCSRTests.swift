import Foundation
import MatterCore
import MatterCredentials
import MatterCrypto
import MatterTLV
import MatterTestSupport
import Testing

@Suite("CSR, NOCSR elements, attestation elements and their signatures")
struct ElementsAndCSRTests {
    @Test("a CSR made here parses, yields its key, and has the SDK's shape (v1, O=CSR, ≤ 255 bytes)")
    func csrRoundTrip() throws {
        let key = try P256PrivateKey()
        let csr = try CertificateSigningRequest.create(key: key)
        #expect(csr.derEncoded.count <= CertificateSigningRequest.maximumByteCount)
        let parsed = try CertificateSigningRequest(der: csr.derEncoded)
        #expect(parsed.publicKey == key.publicKey)
        let subject = hex("300e310c300a060355040a0c03435352")  // O=CSR
        #expect(csr.derEncoded.indices.contains { Array(csr.derEncoded[$0...].prefix(subject.count)) == subject })
    }

    @Test("OpenSSL verifies a CSR made here", .enabled(if: OpenSSLCLI.isAvailable, "/usr/bin/openssl is missing"))
    func opensslVerifiesCSR() throws {
        let csr = try CertificateSigningRequest.create(key: try P256PrivateKey())
        let directory = try TemporaryDirectory()
        try directory.write(csr.derEncoded, "csr.der")
        let result = try OpenSSLCLI.run(
            ["req", "-inform", "DER", "-in", "csr.der", "-verify", "-noout"], in: directory.url)
        #expect(result.status == 0, "openssl req -verify: \(result.output)")
        #expect(
            result.output.contains("verify OK")
                || result.output.contains("Certificate request self-signature verify OK"))
    }

    @Test("a CSR made by OpenSSL parses", .enabled(if: OpenSSLCLI.isAvailable, "/usr/bin/openssl is missing"))
    func opensslCSRParses() throws {
        let directory = try TemporaryDirectory()
        let key = try P256PrivateKey()
        try directory.write(try PEM.encode(privateKey: key), "key.pem")
        let result = try OpenSSLCLI.run(
            ["req", "-new", "-key", "key.pem", "-subj", "/O=CSR", "-sha256", "-outform", "DER", "-out", "csr.der"],
            in: directory.url)
        #expect(result.status == 0, "openssl req -new: \(result.output)")
        let der = [UInt8](try Data(contentsOf: directory.url.appendingPathComponent("csr.der")))
        #expect(try CertificateSigningRequest(der: der).publicKey == key.publicKey)
    }

    @Test("tampered, truncated or foreign CSRs throw typed errors")
    func csrTampering() throws {
        let csr = try CertificateSigningRequest.create(key: try P256PrivateKey()).derEncoded
        // Flip a bit of the public key's X coordinate: still parses, either off the curve or a wrong signature.
        var keyFlip = csr
        let pointStart = try #require(
            csr.indices.first { csr[$0] == 0x04 && $0 > 0 && csr[$0 - 1] == 0x00 && csr[$0 - 2] == 0x42 })
        keyFlip[pointStart + 10] ^= 0x01
        expectCredentialsError(
            "tampered CSR key", { try CertificateSigningRequest(der: keyFlip) },
            matches: {
                $0 == .csrSignatureInvalid || { if case .malformedDER = $0 { true } else { false } }($0)
            })
        var subjectFlip = csr
        let subject = try #require(csr.indices.first { Array(csr[$0...].prefix(3)) == [0x43, 0x53, 0x52] })
        subjectFlip[subject] = 0x44  // "DSR": signed bytes changed
        expectCredentialsError(
            "tampered CSR subject", { try CertificateSigningRequest(der: subjectFlip) },
            matches: {
                $0 == .csrSignatureInvalid
            })
        for length in [0, 1, 10, csr.count / 2, csr.count - 1] {
            expectCredentialsError(
                "truncated CSR", { try CertificateSigningRequest(der: Array(csr.prefix(length))) },
                matches: {
                    if case .malformedDER = $0 { true } else { false }
                })
        }
        expectCredentialsError(
            "trailing bytes", { try CertificateSigningRequest(der: csr + [0]) },
            matches: {
                if case .malformedDER = $0 { true } else { false }
            })
    }

    @Test("NOCSR elements round-trip with and without vendor-reserved fields")
    func nocsrRoundTrip() throws {
        let csr = try CertificateSigningRequest.create(key: try P256PrivateKey()).derEncoded
        let nonce = try SecureRandom.bytes(count: 32)
        let plain = NOCSRElements(csr: csr, csrNonce: nonce)
        #expect(try NOCSRElements(tlv: plain.tlvEncoded) == plain)
        let full = NOCSRElements(csr: csr, csrNonce: nonce, vendorReserved1: [1], vendorReserved3: [3, 3])
        #expect(try NOCSRElements(tlv: full.tlvEncoded) == full)
        // Layout: 15 30 01 <len> csr… 30 02 20 nonce… 18
        let encoded = plain.tlvEncoded
        #expect(Array(encoded.prefix(2)) == [0x15, 0x30] && encoded.last == 0x18)
        let shortNonce = NOCSRElements(csr: csr, csrNonce: [1, 2, 3])
        expectCredentialsError(
            "short nonce", { try NOCSRElements(tlv: shortNonce.tlvEncoded) },
            matches: {
                if case .malformedTLV = $0 { true } else { false }
            })
        expectCredentialsError(
            "truncated", { try NOCSRElements(tlv: Array(encoded.dropLast())) },
            matches: {
                if case .malformedTLV = $0 { true } else { false }
            })
    }

    @Test("attestation elements round-trip, keep vendor-reserved elements, and reject others")
    func attestationElementsRoundTrip() throws {
        let nonce = try SecureRandom.bytes(count: 32)
        let elements = AttestationElements(
            certificationDeclaration: [0x30, 0x00], attestationNonce: nonce, timestamp: 0x1234_5678,
            firmwareInformation: [9, 9],
            vendorReserved: [TLVElement(tag: .fullyQualified(vendorID: 0xFFF1, profile: 0x0003, tag: 1), .bytes([7]))])
        #expect(try AttestationElements(tlv: elements.tlvEncoded) == elements)
        let minimal = AttestationElements(certificationDeclaration: [1], attestationNonce: nonce)
        let encoded = minimal.tlvEncoded
        #expect(hexString(encoded) == "1530010101300220" + hexString(nonce) + "24030018")
        #expect(try AttestationElements(tlv: encoded) == minimal)
        var writer = TLVWriter()
        writer.putStructure { w in
            w.putBytes([1], tag: .context(1))
            w.putBytes(nonce, tag: .context(2))
            w.putUnsigned(0, tag: .context(3))
            w.putUnsigned(5, tag: .context(9))
        }
        expectCredentialsError(
            "unknown context tag", { try AttestationElements(tlv: writer.bytes) },
            matches: {
                if case .malformedTLV = $0 { true } else { false }
            })
        expectCredentialsError(
            "too large",
            {
                try AttestationElements(
                    tlv: AttestationElements(
                        certificationDeclaration: [UInt8](repeating: 0, count: 900), attestationNonce: nonce
                    ).tlvEncoded)
            }, matches: { if case .malformedTLV = $0 { true } else { false } })
    }

    @Test("the attestation signature covers elements ‖ challenge")
    func attestationSignature() throws {
        let dacKey = try P256PrivateKey()
        let elements = [UInt8](repeating: 0x15, count: 40)
        let challenge = try SecureRandom.bytes(count: 16)
        let signature = try AttestationSignature.sign(
            elements: elements, attestationChallenge: challenge, dacKey: dacKey)
        #expect(dacKey.publicKey.isValidSignature(signature, for: elements + challenge))
        #expect(
            AttestationSignature.isValid(
                signature, elements: elements, attestationChallenge: challenge,
                dacPublicKey: dacKey.publicKey))
        var otherChallenge = challenge
        otherChallenge[0] ^= 1
        #expect(
            !AttestationSignature.isValid(
                signature, elements: elements, attestationChallenge: otherChallenge,
                dacPublicKey: dacKey.publicKey))
        #expect(
            !AttestationSignature.isValid(
                signature, elements: elements, attestationChallenge: challenge,
                dacPublicKey: try P256PrivateKey().publicKey))
    }

    @Test("PEM round-trips certificates and keys, and refuses broken text")
    func pem() throws {
        let key = try P256PrivateKey()
        let text = try PEM.encode(privateKey: key)
        #expect(text.hasPrefix("-----BEGIN EC PRIVATE KEY-----\n"))
        #expect(try PEM.privateKey(text).publicKey == key.publicKey)
        let pkcs8 = PEM.encode(try key.pkcs8DERRepresentation(), label: PEM.privateKeyLabel)
        #expect(try PEM.privateKey(pkcs8).publicKey == key.publicKey)
        for count in 0..<7 {
            let bytes = (0..<UInt8(count + 60)).map { $0 &* 37 }
            #expect(try PEM.decode(PEM.encode(bytes, label: "X"), label: "X") == bytes)
        }
        expectCredentialsError(
            "no block", { try PEM.decode("hello", label: "X") },
            matches: {
                if case .malformedPEM = $0 { true } else { false }
            })
        expectCredentialsError(
            "bad base64", { try PEM.decode("-----BEGIN X-----\n@@@@\n-----END X-----\n", label: "X") },
            matches: {
                if case .malformedPEM = $0 { true } else { false }
            })
    }
}
