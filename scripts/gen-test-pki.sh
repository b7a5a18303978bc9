#!/usr/bin/env bash
# Regenerates the committed TEST-ONLY device attestation PKI under fixtures/pki: one PAA (VID 0xFFF1), one
# PAA without a Vendor ID (for twins of recorded devices, which serve their recording's Vendor ID),
# one PAI (VID 0xFFF1), and a DAC + key + certification declaration per emulated device type.
#
# The certificates and CDs are made by MatterCredentials itself (AttestationCertificate / TestAttestationAuthority
# / SignedCertificationDeclaration), through the TestPKIGenerationTests suite, so the fixtures always have exactly
# the profile the module produces and checks (the SDK's DAC/PAI/PAA profile). The suite verifies the set with the
# module's attestation verifier before writing; CDs are signed with the SDK's public test CD key
# (fixtures/pki/cd-signing-key.pem), which SDK controllers trust for development devices.
#
# Every key written here is a test key and public: never use it for anything but tests.
set -euo pipefail
cd "$(dirname "$0")/.."

out="$(pwd)/fixtures/pki"
echo "gen-test-pki: building" >&2
swift build --build-tests -Xswiftc -warnings-as-errors >&2
echo "gen-test-pki: generating into $out" >&2
MATTER_EMU_PKI_OUTPUT="$out" swift test --skip-build --filter '\.TestPKIGenerationTests/'
echo "gen-test-pki: checking the written set (our verifier and openssl verify)" >&2
swift test --skip-build --filter '\.CommittedTestPKITests/'
