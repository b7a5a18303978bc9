import MatterCore

extension ClusterSchema {
    /// Operational Credentials 0x003E (rev 2, Matter 1.5: the VID verification commands
    /// SetVIDVerificationStatement and SignVIDVerificationRequest, and the VIDVerificationStatement and
    /// VVSC fields of FabricDescriptorStruct), on endpoint 0. Every command needs Administer.
    public static let operationalCredentials = ClusterSchema(
        .operationalCredentials, "OperationalCredentials", revision: 2,
        attributes: [
            AttributeSchema(
                .OperationalCredentials.nocs, "NOCs",
                .list(
                    .structure(
                        StructSchema(
                            "NOCStruct", fabricScoped: true,
                            [
                                FieldSchema(1, "NOC", .octets(maxLength: 400)),
                                FieldSchema(2, "ICAC", .octets(maxLength: 400), nullable: true),
                                FieldSchema(3, "VVSC", .octets(maxLength: 400), optional: true),
                                .fabricIndex,
                            ]))), read: .administer, fabricScoped: true),
            AttributeSchema(
                .OperationalCredentials.fabrics, "Fabrics", .list(.structure(fabricDescriptorStruct)),
                fabricScoped: true),
            AttributeSchema(.OperationalCredentials.supportedFabrics, "SupportedFabrics", .uint8),
            AttributeSchema(.OperationalCredentials.commissionedFabrics, "CommissionedFabrics", .uint8),
            AttributeSchema(
                .OperationalCredentials.trustedRootCertificates, "TrustedRootCertificates",
                .list(.octets(maxLength: 400))),
            AttributeSchema(.OperationalCredentials.currentFabricIndex, "CurrentFabricIndex", .uint8),
        ],
        commands: [
            CommandSchema(
                .OperationalCredentials.attestationRequest, "AttestationRequest",
                [FieldSchema(0, "AttestationNonce", .octets(maxLength: 32))],
                response: .command(.OperationalCredentials.attestationResponse), privilege: .administer),
            CommandSchema(
                .OperationalCredentials.certificateChainRequest, "CertificateChainRequest",
                [FieldSchema(0, "CertificateType", .enum8)],
                response: .command(.OperationalCredentials.certificateChainResponse), privilege: .administer),
            CommandSchema(
                .OperationalCredentials.csrRequest, "CSRRequest",
                [
                    FieldSchema(0, "CSRNonce", .octets(maxLength: 32)),
                    FieldSchema(1, "IsForUpdateNOC", .boolean, optional: true),
                ], response: .command(.OperationalCredentials.csrResponse), privilege: .administer),
            CommandSchema(
                .OperationalCredentials.addNOC, "AddNOC",
                [
                    FieldSchema(0, "NOCValue", .octets(maxLength: 400)),
                    FieldSchema(1, "ICACValue", .octets(maxLength: 400), optional: true),
                    FieldSchema(2, "IPKValue", .octets(maxLength: 16)),
                    FieldSchema(3, "CaseAdminSubject", .uint64),
                    FieldSchema(4, "AdminVendorId", .uint16),
                ], response: .command(.OperationalCredentials.nocResponse), privilege: .administer),
            CommandSchema(
                .OperationalCredentials.updateNOC, "UpdateNOC",
                [
                    FieldSchema(0, "NOCValue", .octets(maxLength: 400)),
                    FieldSchema(1, "ICACValue", .octets(maxLength: 400), optional: true),
                ], response: .command(.OperationalCredentials.nocResponse), privilege: .administer, fabricScoped: true),
            CommandSchema(
                .OperationalCredentials.updateFabricLabel, "UpdateFabricLabel",
                [FieldSchema(0, "Label", .string(maxLength: 32))],
                response: .command(.OperationalCredentials.nocResponse), privilege: .administer,
                fabricScoped: true),
            CommandSchema(
                .OperationalCredentials.removeFabric, "RemoveFabric", [FieldSchema(0, "FabricIndex", .uint8)],
                response: .command(.OperationalCredentials.nocResponse), privilege: .administer),
            CommandSchema(
                .OperationalCredentials.addTrustedRootCertificate, "AddTrustedRootCertificate",
                [FieldSchema(0, "RootCACertificate", .octets(maxLength: 400))], privilege: .administer),
            CommandSchema(
                .OperationalCredentials.setVIDVerificationStatement, "SetVIDVerificationStatement",
                [
                    FieldSchema(0, "VendorID", .uint16, optional: true),
                    FieldSchema(1, "VIDVerificationStatement", .octets(maxLength: 85), optional: true),
                    FieldSchema(2, "VVSC", .octets(maxLength: 400), optional: true),
                ], privilege: .administer, fabricScoped: true),
            CommandSchema(
                .OperationalCredentials.signVIDVerificationRequest, "SignVIDVerificationRequest",
                [FieldSchema(0, "FabricIndex", .uint8), FieldSchema(1, "ClientChallenge", .octets(maxLength: 32))],
                response: .command(.OperationalCredentials.signVIDVerificationResponse), privilege: .administer),
        ],
        responses: [
            CommandSchema(
                .OperationalCredentials.attestationResponse, "AttestationResponse",
                [
                    FieldSchema(0, "AttestationElements", .octets(maxLength: 900)),
                    FieldSchema(1, "AttestationSignature", .octets(maxLength: 64)),
                ]),
            CommandSchema(
                .OperationalCredentials.certificateChainResponse, "CertificateChainResponse",
                [FieldSchema(0, "Certificate", .octets(maxLength: 600))]),
            CommandSchema(
                .OperationalCredentials.csrResponse, "CSRResponse",
                [
                    FieldSchema(0, "NOCSRElements", .octets(maxLength: 900)),
                    FieldSchema(1, "AttestationSignature", .octets(maxLength: 64)),
                ]),
            CommandSchema(
                .OperationalCredentials.nocResponse, "NOCResponse",
                [
                    FieldSchema(0, "StatusCode", .enum8),
                    FieldSchema(1, "FabricIndex", .uint8, optional: true),
                    FieldSchema(2, "DebugText", .string(maxLength: 128), optional: true),
                ]),
            CommandSchema(
                .OperationalCredentials.signVIDVerificationResponse, "SignVIDVerificationResponse",
                [
                    FieldSchema(0, "FabricIndex", .uint8), FieldSchema(1, "FabricBindingVersion", .uint8),
                    FieldSchema(2, "Signature", .octets(maxLength: 64)),
                ]),
        ])

    /// FabricDescriptorStruct, an entry of the Fabrics attribute.
    public static let fabricDescriptorStruct = StructSchema(
        "FabricDescriptorStruct", fabricScoped: true,
        [
            FieldSchema(1, "RootPublicKey", .octets(maxLength: 65)),
            FieldSchema(2, "VendorID", .uint16),
            FieldSchema(3, "FabricID", .uint64),
            FieldSchema(4, "NodeID", .uint64),
            FieldSchema(5, "Label", .string(maxLength: 32)),
            FieldSchema(6, "VIDVerificationStatement", .octets(maxLength: 85), optional: true),
            .fabricIndex,
        ])
}
