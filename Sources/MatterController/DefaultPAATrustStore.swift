import Foundation
public import MatterCredentials

/// The PAAs device attestation trusts when no `--paa-trust-store` is given: this project's test PAAs
/// (`fixtures/pki/paa-trust-store`: FFF1's for our virtual devices, the any-vendor one for twins) and the
/// connectedhomeip SDK's public test PAAs (`credentials/test/attestation/Chip-Test-PAA-{FFF1,FFF2,NoVID}-Cert.pem`), so
/// development devices built on the SDK's example credentials are accepted out of the box, as
/// chip-tool accepts them. Compiled in, so the installed binary needs no data files.
///
/// Every certificate here is public test material: trust it for development, never in production.
public enum DefaultPAATrustStore {
    /// The default store.
    public static func make() throws(CredentialsError) -> PAATrustStore {
        var certificates: [[UInt8]] = []
        for pem in pems { certificates.append(try PEM.decode(pem, label: PEM.certificateLabel)) }
        return try PAATrustStore(certificates: certificates)
    }

    /// A store holding every certificate of `directory`: `*.der` files (as chip-tool's
    /// `--paa-trust-store-path`) and `*.pem` files. Files that are not P-256 certificates are skipped.
    public static func load(directory: String) throws(CredentialsError) -> PAATrustStore {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            throw .invalidArgument(
                "cannot read the PAA trust store directory \(directory): \(error.localizedDescription)")
        }
        var certificates: [AttestationCertificate] = []
        for name in names {
            let lower = name.lowercased()
            guard lower.hasSuffix(".der") || lower.hasSuffix(".pem"),
                let data = FileManager.default.contents(atPath: directory + "/" + name)
            else { continue }
            let der: [UInt8]? =
                lower.hasSuffix(".der")
                ? [UInt8](data) : try? PEM.decode(String(decoding: data, as: UTF8.self), label: PEM.certificateLabel)
            guard let der, let certificate = try? AttestationCertificate(der: der) else { continue }
            certificates.append(certificate)
        }
        guard !certificates.isEmpty else {
            throw .invalidArgument("no PAA certificate (*.der or *.pem) in \(directory)")
        }
        return try PAATrustStore(certificates: certificates.map(\.derEncoded))
    }

    static let pems = [
        matterEmulatorTestPAA, matterEmulatorAnyVendorPAA, sdkTestPAAFFF1, sdkTestPAAFFF2, sdkTestPAANoVID,
    ]

    /// This project's test PAA, `fixtures/pki/paa-cert.pem` ("Matter Emulator Test PAA FFF1").
    /// fixtures/pki/paa-any-vendor-cert.pem: this project's PAA without a Vendor ID, which signs the PAIs
    /// of twins of recorded devices (any vendor).
    static let matterEmulatorAnyVendorPAA = """
        -----BEGIN CERTIFICATE-----
        MIIBuzCCAWCgAwIBAgIIYXxZ5jIQrLcwCgYIKoZIzj0EAwIwLjEsMCoGA1UEAwwj
        TWF0dGVyIEVtdWxhdG9yIFRlc3QgUEFBIEFueSBWZW5kb3IwIBcNMjQwMTAxMDAw
        MDAwWhgPOTk5OTEyMzEyMzU5NTlaMC4xLDAqBgNVBAMMI01hdHRlciBFbXVsYXRv
        ciBUZXN0IFBBQSBBbnkgVmVuZG9yMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE
        kQM6D+QkCWnTQC1jQeazGtWlA5LLWip1Zjp2BrzCfMnyAvchXEqF3k0/Rp/rWGdF
        RtKwLs9xpB0TxwzKdofKf6NmMGQwEgYDVR0TAQH/BAgwBgEB/wIBATAOBgNVHQ8B
        Af8EBAMCAQYwHQYDVR0OBBYEFHAxzRTCrzbAFi6FnDkn6KKUnlTHMB8GA1UdIwQY
        MBaAFHAxzRTCrzbAFi6FnDkn6KKUnlTHMAoGCCqGSM49BAMCA0kAMEYCIQDOWRb1
        RCt63x11WNi5cFZplbAKxLwkvK23wkQcK7o+WQIhAKSX12eKZUDmBjTld49Am+9f
        D9+cT84g81rWGdVGBQ4o
        -----END CERTIFICATE-----
        """

    static let matterEmulatorTestPAA = """
        -----BEGIN CERTIFICATE-----
        MIIB2zCCAYCgAwIBAgIIXfAqWI4eeOwwCgYIKoZIzj0EAwIwPjEmMCQGA1UEAwwd
        TWF0dGVyIEVtdWxhdG9yIFRlc3QgUEFBIEZGRjExFDASBgorBgEEAYKifAIBDARG
        RkYxMCAXDTI0MDEwMTAwMDAwMFoYDzk5OTkxMjMxMjM1OTU5WjA+MSYwJAYDVQQD
        DB1NYXR0ZXIgRW11bGF0b3IgVGVzdCBQQUEgRkZGMTEUMBIGCisGAQQBgqJ8AgEM
        BEZGRjEwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARIG/ID4Q/CaEEFU9yUIMeE
        6MjrIg6zbZxWo/EFkXhxkdM+4oE25S3HuF80oZeM1PQzJSBJZflo/+XXDyibWEI0
        o2YwZDASBgNVHRMBAf8ECDAGAQH/AgEBMA4GA1UdDwEB/wQEAwIBBjAdBgNVHQ4E
        FgQUI6KP/vMmdXEa1eYbVnBOQ8Jdnm4wHwYDVR0jBBgwFoAUI6KP/vMmdXEa1eYb
        VnBOQ8Jdnm4wCgYIKoZIzj0EAwIDSQAwRgIhAIUbbCkU21mX2dxZexeJqTplOHHu
        MSBo7Dt2ctO03dpfAiEA5YE6s04z5aKZz1N6yTLLzwOP+QPFKaMR+tfgDTzF9FE=
        -----END CERTIFICATE-----
        """

    /// The SDK's `Chip-Test-PAA-FFF1-Cert.pem` ("Matter Test PAA FFF1").
    static let sdkTestPAAFFF1 = """
        -----BEGIN CERTIFICATE-----
        MIIBlzCCAT2gAwIBAgIIYwzoqkaJ0oswCgYIKoZIzj0EAwIwHzEdMBsGA1UEAwwU
        TWF0dGVyIFRlc3QgUEFBIEZGRjEwHhcNMjEwNjI4MTQyMzQzWhcNNDEwNjI4MTQy
        MzQyWjAfMR0wGwYDVQQDDBRNYXR0ZXIgVGVzdCBQQUEgRkZGMTBZMBMGByqGSM49
        AgEGCCqGSM49AwEHA0IABCZWek7mw+ydJL2fTOfW4lfV1AmeFiSeumsku/+1yRNW
        NO3XG/U4EJpcK5QZqp54c0SQGQznM1+142I8cl7MdpqjYzBhMA8GA1UdEwEB/wQF
        MAMBAf8wDgYDVR0PAQH/BAQDAgEGMB0GA1UdDgQWBBRrelhB3iUDzkEGgKRDEymH
        egYd8DAfBgNVHSMEGDAWgBRrelhB3iUDzkEGgKRDEymHegYd8DAKBggqhkjOPQQD
        AgNIADBFAiEAjwDTY+13fdPJ9In1CMWyzo4HZgBkVboqU4ckW0R0oR8CIB/kBoOW
        TUpFFXv6vt6bYYqvuBlxiM/yACV6jj3gN8a1
        -----END CERTIFICATE-----
        """

    /// The SDK's `Chip-Test-PAA-FFF2-Cert.pem` ("Matter Test PAA FFF2").
    static let sdkTestPAAFFF2 = """
        -----BEGIN CERTIFICATE-----
        MIIBljCCAT2gAwIBAgIIF121OzyfE/kwCgYIKoZIzj0EAwIwHzEdMBsGA1UEAwwU
        TWF0dGVyIFRlc3QgUEFBIEZGRjIwHhcNMjEwNjI4MTQyMzQzWhcNNDEwNjI4MTQy
        MzQyWjAfMR0wGwYDVQQDDBRNYXR0ZXIgVGVzdCBQQUEgRkZGMjBZMBMGByqGSM49
        AgEGCCqGSM49AwEHA0IABGNN9sTBY/2WR6FTyEB60q+gfXic99YyRz14XNGjZ+9a
        2fq78FhYSXf4qlHAVYtL+sCT4IpG5d0xSx+xBW3HlNajYzBhMA8GA1UdEwEB/wQF
        MAMBAf8wDgYDVR0PAQH/BAQDAgEGMB0GA1UdDgQWBBTirsSd+eqfMuwsbOPwe1qk
        qJgB6zAfBgNVHSMEGDAWgBTirsSd+eqfMuwsbOPwe1qkqJgB6zAKBggqhkjOPQQD
        AgNHADBEAiAgizLtg70KDFf7EV1WAoF2JQOHdIczu0FDNhKucAlOBQIgCxsplrwA
        wtmT/ZIcI8GHSZogcyJ0BobQujVk4sUrjxk=
        -----END CERTIFICATE-----
        """

    /// The SDK's `Chip-Test-PAA-NoVID-Cert.pem` ("Matter Test PAA", no vendor ID).
    static let sdkTestPAANoVID = """
        -----BEGIN CERTIFICATE-----
        MIIBkTCCATegAwIBAgIHC4+6qN2G7jAKBggqhkjOPQQDAjAaMRgwFgYDVQQDDA9N
        YXR0ZXIgVGVzdCBQQUEwIBcNMjEwNjI4MTQyMzQzWhgPOTk5OTEyMzEyMzU5NTla
        MBoxGDAWBgNVBAMMD01hdHRlciBUZXN0IFBBQTBZMBMGByqGSM49AgEGCCqGSM49
        AwEHA0IABBDvAqgah7aBIfuo0xl4+AejF+UKqKgoRGgokUuTPejt1KXDnJ/3Gkzj
        ZH/X9iZTt9JJX8ukwPR/h2iAA54HIEqjZjBkMBIGA1UdEwEB/wQIMAYBAf8CAQEw
        DgYDVR0PAQH/BAQDAgEGMB0GA1UdDgQWBBR4XOcFuGuPTm/Hk6pgy0PqaWiC1TAf
        BgNVHSMEGDAWgBR4XOcFuGuPTm/Hk6pgy0PqaWiC1TAKBggqhkjOPQQDAgNIADBF
        AiEAue/bPqBqUuwL8B5h2u0sLRVt22zwFBAdq3mPrAX6R+UCIGAGHT411g2dSw1E
        ja12EvfoXFguP8MS3Bh5TdNzcV5d
        -----END CERTIFICATE-----
        """
}
