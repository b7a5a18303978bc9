import MatterTestSupport

/// Every interaction-model payload of the golden commissioning transcript
/// (`spec/transcript-commissioning.jsonl`): what the SDK controller 2025.7.0 sent (`fromController`)
/// and what the device it commissioned answered.
struct TranscriptMessage: Sendable {
    let seq: Int
    let fromController: Bool
    let opcode: UInt8
    let name: String
    let payload: String
}

let transcriptMessages: [TranscriptMessage] = [
    TranscriptMessage(
        seq: 7, fromController: true, opcode: 0x02, name: "ReadRequest",
        payload:
            "153600172402002403302404041817240200240330240400181724020024033024040118172402002403302404021817"
            + "24020024033024040318172402002403282404021817240200240328240404181724020024033818172403312504fcff"
            + "1818280324ff0c18"),
    TranscriptMessage(
        seq: 8, fromController: false, opcode: 0x05, name: "ReportData",
        payload:
            "1536011535012600c321e9fe370124020024033024040418290218181535012600c321e9fe3701240200240330240400"
            + "1824020018181535012600c321e9fe370124020024033024040118350224000a250184031818181535012600c321e9fe"
            + "37012402002403302404021824020218181535012600c321e9fe37012402002403302404031824020218181535012600"
            + "e0d8f5233701240200240328240402182502f4ff18181535012600e0d8f5233701240200240328240404182502341218"
            + "18153501260098375fa337012402002403312504fcff18240201181818290424ff0b18"),
    TranscriptMessage(
        seq: 10, fromController: true, opcode: 0x02, name: "ReadRequest",
        payload:
            "153600172403312404031817240200240346240406181724020024034624040718172402002403462404001817240200"
            + "24034624040118172402002403462404021818280324ff0c18"),
    TranscriptMessage(
        seq: 11, fromController: false, opcode: 0x05, name: "ReportData",
        payload:
            "153601153501260098375fa337012402002403312404031824020a181818290424ff0b18"),
    TranscriptMessage(
        seq: 13, fromController: true, opcode: 0x08, name: "InvokeCommandRequest",
        payload:
            "1528002801360215370024000024013024020018350124000a24010318181824ff0c18"),
    TranscriptMessage(
        seq: 14, fromController: false, opcode: 0x09, name: "InvokeCommandResponse",
        payload:
            "152800360115350037002400002401302402011835012400002c01001818181824ff0b18"),
    TranscriptMessage(
        seq: 16, fromController: true, opcode: 0x08, name: "InvokeCommandRequest",
        payload:
            "152800280136021537002400002401302402021835012400022c0102585824020418181824ff0c18"),
    TranscriptMessage(
        seq: 17, fromController: false, opcode: 0x09, name: "InvokeCommandResponse",
        payload:
            "152800360115350037002400002401302402031835012400002c01001818181824ff0b18"),
    TranscriptMessage(
        seq: 19, fromController: true, opcode: 0x08, name: "InvokeCommandRequest",
        payload:
            "1528002801360215370024000024013e24020218350124000218181824ff0c18"),
    TranscriptMessage(
        seq: 20, fromController: false, opcode: 0x09, name: "InvokeCommandResponse",
        payload:
            "1528003601153500370024000024013e2402031835013100ae01308201aa30820150a00302010202085ef5afd01360f5"
            + "d4300a06082a8648ce3d040302301a3118301606035504030c0f4d61747465722054657374205041413020170d323431"
            + "3031373030303030305a180f39393939313233313233353935395a3032311a301806035504030c11436972637569744d"
            + "61747465722050414931143012060a2b0601040182a27c02010c04464646343059301306072a8648ce3d020106082a86"
            + "48ce3d03010703420004375d2bc8c615275bfd848b52fe2196e2a14ef3cc91aef05dff851cbc19b1a935458cfe04aa42"
            + "4e016de3d674dc5b7329bd7757fddb3238d62673629b3c790845a366306430120603551d130101ff040830060101ff02"
            + "0100300e0603551d0f0101ff040403020106301d0603551d0e0416041407f8380a5f0136fce236bd45f288ff22dca6f4"
            + "a7301f0603551d23041830168014785ce705b86b8f4e6fc793aa60cb43ea696882d5300a06082a8648ce3d0403020348"
            + "0030450221009c5f59835cc651c25c79013325223d256be74398bc038389f4556df7f74a8a3402205c14174cc32307ff"
            + "421c4f8b0b63b9625258a296e031fdce51a27a08492bc0381818181824ff0b18"),
    TranscriptMessage(
        seq: 22, fromController: true, opcode: 0x08, name: "InvokeCommandRequest",
        payload:
            "1528002801360215370024000024013e24020218350124000118181824ff0c18"),
    TranscriptMessage(
        seq: 23, fromController: false, opcode: 0x09, name: "InvokeCommandResponse",
        payload:
            "1528003601153500370024000024013e2402031835013100d201308201ce30820174a003020102020101300a06082a86"
            + "48ce3d0403023032311a301806035504030c11436972637569744d61747465722050414931143012060a2b0601040182"
            + "a27c02010c04464646343020170d3234313031373030303030305a180f39393939313233313233353935395a304b311d"
            + "301b06035504030c14436972637569744d61747465722044657669636531143012060a2b0601040182a27c02010c0446"
            + "46463431143012060a2b0601040182a27c02020c04313233343059301306072a8648ce3d020106082a8648ce3d030107"
            + "034200045d956231e92235cf68203a09e2d94c9096cba800964b622212caf74b7ec80b2ac20e5f1b83dd4058cdfb1ef4"
            + "0b9ac8a002e2081bfb3814fc2d98e6f23107beb5a360305e300c0603551d130101ff04023000300e0603551d0f0101ff"
            + "040403020780301d0603551d0e041604143c38568899328bb7d98bfd8567d040a88c339d22301f0603551d2304183016"
            + "801407f8380a5f0136fce236bd45f288ff22dca6f4a7300a06082a8648ce3d0403020348003045022100f797458a24b3"
            + "d79ff1a873d108684589ed9db559513cd439e51a93119e2a2d29022025d4052476221d41f3cdc1ed699b305f64adb9dd"
            + "4e6da66580e24ab414603ba51818181824ff0b18"),
    TranscriptMessage(
        seq: 25, fromController: true, opcode: 0x08, name: "InvokeCommandRequest",
        payload:
            "1528002801360215370024000024013e24020018350130002098ed38311b7f6dcc8fc3831a25954d2bd9ec757968baa5"
            + "d219b567a72ea6a45518181824ff0c18"),
    TranscriptMessage(
        seq: 26, fromController: false, opcode: 0x09, name: "InvokeCommandResponse",
        payload:
            "1528003601153500370024000024013e24020118350131001701153001e93081e606092a864886f70d010702a081d830"
            + "81d5020103310d300b0609608648016503040201304306092a864886f70d010701a0360434152400012501f4ff360205"
            + "3412182403162c0413435341303030303053574330303030302d303024050024060024070124080018317c307a020103"
            + "801462fa823359acfaa9963e1cfa140addf504f37160300b0609608648016503040201300a06082a8648ce3d04030204"
            + "46304402200a2d72481076c55b74b748eddce141cd563638f0c386db8df8d433fb3a34e262022033b3243dea56cf3a6b"
            + "c7526f05d00e1812dfa2b1bca7d95928f9cc9853eddae630022098ed38311b7f6dcc8fc3831a25954d2bd9ec757968ba"
            + "a5d219b567a72ea6a4552603d0b30c6b18300140747d63e41d37e7fe04b0a4779f603abb85dbcfb6cc3a74e1a9c788cc"
            + "e13f14061103433727136cbb37343e85e584f4b4424dcfa3ba041ef087c7f7f5c9a9eaa41818181824ff0b18"),
    TranscriptMessage(
        seq: 28, fromController: true, opcode: 0x08, name: "InvokeCommandRequest",
        payload:
            "1528002801360215370024000024013e240204183501300020606058e61278caa9e6e84b97c81abe97f44781a415bb37"
            + "3d0b1a3bcdd3f5ac3518181824ff0c18"),
    TranscriptMessage(
        seq: 29, fromController: false, opcode: 0x09, name: "InvokeCommandResponse",
        payload:
            "1528003601153500370024000024013e24020518350131000401153001dc3081d9308181020100300e310c300a060355"
            + "040a0c034353413059301306072a8648ce3d020106082a8648ce3d0301070342000415a02fb0986ba326b1e983ea831d"
            + "8ff70f7eaa4d05a74758d5931a5a2bb781ca8894410c93bf98890d68c14ffb04bdcd70d4c13bf609b67e31e95008d4e5"
            + "ed3fa011300f06092a864886f70d01090e31023000300a06082a8648ce3d04030203470030440220475b48e5740305f1"
            + "0b865f40a41f7cfb833f1011e7e950f7652980714b6f039402200d37bf1dff7e5f9073da62b4732b61ad170e6bc695b9"
            + "90c6768db56d635d5e53300220606058e61278caa9e6e84b97c81abe97f44781a415bb373d0b1a3bcdd3f5ac35183001"
            + "40ad5e38b9f54e3a2ae75f435560f6aa39dd4d0fe4e8cf2e5f7d0f6167a1e6c3a9cb3688198e7f3a793e36e906c28202"
            + "77514dad7a8039ffe08b73b9e93aa3707a1818181824ff0b18"),
    TranscriptMessage(
        seq: 31, fromController: true, opcode: 0x08, name: "InvokeCommandRequest",
        payload:
            "1528002801360215370024000024013e24020b1835013000e71530010101240201370324140118260480228127260580"
            + "254d3a370624140118240701240801300941048ee79ab624c1f9f57fd6f302af287e52be9331bd3ba83d0d40331b5aaa"
            + "821d7cf84aeaf24d4dc88fbceacd010880bdaf3837128e61a5eadeaabda4b75d00ce18370a3501290118240260300414"
            + "dc2c7a3a40ce066a27eaee42b775338e123e07cd300514dc2c7a3a40ce066a27eaee42b775338e123e07cd18300b404a"
            + "f039e7be971da0f4a5e96aea217fca2ad54053be2118d93ce1a5490025011ca939ef5ab7d2f2bd2f93fe5124eb70f786"
            + "7a7b074dcfa3eb6ddde0f95b3589501818181824ff0c18"),
    TranscriptMessage(
        seq: 32, fromController: false, opcode: 0x09, name: "InvokeCommandResponse",
        payload:
            "1528003601153501370024000024013e24020b1835012400001818181824ff0b18"),
    TranscriptMessage(
        seq: 34, fromController: true, opcode: 0x08, name: "InvokeCommandRequest",
        payload:
            "1528002801360215370024000024013e2402061835013000f21530010101240201370324130218260480228127260580"
            + "254d3a370624150125113412182407012408013009410415a02fb0986ba326b1e983ea831d8ff70f7eaa4d05a74758d5"
            + "931a5a2bb781ca8894410c93bf98890d68c14ffb04bdcd70d4c13bf609b67e31e95008d4e5ed3f370a35012801182402"
            + "013603040204011830041428fa48a5b4056e40da1041d1023a8b8e1edc3caa3005146b2723ba9fe84f164637df1985c6"
            + "1cb34f5ab75b18300b40316574ca434581524e6b626850f11950e43468286b69d265d239999bc9e735f415f83ad87b6a"
            + "808d3c107892cabbc47c9a50131037db956fe59b211d69dffb6b183001e7153001010124020137032414011826048022"
            + "8127260580254d3a370624130218240701240801300941048c7b1dbbfd92378aaca098d6d21f728e3df752229d547007"
            + "c25e69582b85625521b7897fa8bde1681676e05da1fefc7e46b57c8deee095542ff885c78987ac43370a350129011824"
            + "02603004146b2723ba9fe84f164637df1985c61cb34f5ab75b300514dc2c7a3a40ce066a27eaee42b775338e123e07cd"
            + "18300b4086537584266c83f65d1585a2072af7251b3da0bd75903f5191075fa155796882d68bb89a7bbbdc58a314bcca"
            + "73f868b7a1a10f5f067605a7199f9e29ea0a80511830021074656d706f726172792069706b203031260369b601002504"
            + "f1ff18181824ff0c18"),
    TranscriptMessage(
        seq: 35, fromController: false, opcode: 0x09, name: "InvokeCommandResponse",
        payload:
            "1528003601153500370024000024013e2402081835012400001818181824ff0b18"),
    TranscriptMessage(
        seq: 42, fromController: true, opcode: 0x08, name: "InvokeCommandRequest",
        payload:
            "1528002801360215370024000024013024020418350118181824ff0c18"),
    TranscriptMessage(
        seq: 43, fromController: false, opcode: 0x09, name: "InvokeCommandResponse",
        payload:
            "152800360115350037002400002401302402051835012400002c01001818181824ff0b18"),
    TranscriptMessage(
        seq: 46, fromController: true, opcode: 0x02, name: "ReadRequest",
        payload:
            "1536001724020124030624040018172402012403082404001818290324ff0c18"),
    TranscriptMessage(
        seq: 47, fromController: false, opcode: 0x05, name: "ReportData",
        payload:
            "1536011535012600f8e1e6bc370124020124030624040018280218181535012600096f8bac3701240201240308240400"
            + "183402181818290424ff0b18"),
    TranscriptMessage(
        seq: 49, fromController: true, opcode: 0x08, name: "InvokeCommandRequest",
        payload:
            "1528002801360215370024000124010624020118350118181824ff0c18"),
    TranscriptMessage(
        seq: 50, fromController: false, opcode: 0x09, name: "InvokeCommandResponse",
        payload:
            "152800360115350137002400012401062402011835012400001818181824ff0b18"),
    TranscriptMessage(
        seq: 52, fromController: true, opcode: 0x02, name: "ReadRequest",
        payload:
            "1536001724020124030624040018172402012403082404001818290324ff0c18"),
    TranscriptMessage(
        seq: 53, fromController: false, opcode: 0x05, name: "ReportData",
        payload:
            "1536011535012600f9e1e6bc370124020124030624040018290218181535012600096f8bac3701240201240308240400"
            + "183402181818290424ff0b18"),
    TranscriptMessage(
        seq: 55, fromController: true, opcode: 0x08, name: "InvokeCommandRequest",
        payload:
            "1528002801360215370024000124010624020018350118181824ff0c18"),
    TranscriptMessage(
        seq: 56, fromController: false, opcode: 0x09, name: "InvokeCommandResponse",
        payload:
            "152800360115350137002400012401062402001835012400001818181824ff0b18"),
    TranscriptMessage(
        seq: 58, fromController: true, opcode: 0x02, name: "ReadRequest",
        payload:
            "1536001724020124030624040018172402012403082404001818290324ff0c18"),
    TranscriptMessage(
        seq: 59, fromController: false, opcode: 0x05, name: "ReportData",
        payload:
            "1536011535012600fae1e6bc370124020124030624040018280218181535012600096f8bac3701240201240308240400"
            + "183402181818290424ff0b18"),
    TranscriptMessage(
        seq: 61, fromController: true, opcode: 0x08, name: "InvokeCommandRequest",
        payload:
            "1528002801360215370024000124010624020218350118181824ff0c18"),
    TranscriptMessage(
        seq: 62, fromController: false, opcode: 0x09, name: "InvokeCommandResponse",
        payload:
            "152800360115350137002400012401062402021835012400001818181824ff0b18"),
    TranscriptMessage(
        seq: 64, fromController: true, opcode: 0x02, name: "ReadRequest",
        payload:
            "1536001724020124030624040018172402012403082404001818290324ff0c18"),
    TranscriptMessage(
        seq: 65, fromController: false, opcode: 0x05, name: "ReportData",
        payload:
            "1536011535012600fbe1e6bc370124020124030624040018290218181535012600096f8bac3701240201240308240400"
            + "183402181818290424ff0b18"),
    TranscriptMessage(
        seq: 67, fromController: true, opcode: 0x08, name: "InvokeCommandRequest",
        payload:
            "1528002801360215370024000124010824020018350124004d24010024020024030018181824ff0c18"),
    TranscriptMessage(
        seq: 68, fromController: false, opcode: 0x09, name: "InvokeCommandResponse",
        payload:
            "152800360115350137002400012401082402001835012400001818181824ff0b18"),
    TranscriptMessage(
        seq: 70, fromController: true, opcode: 0x02, name: "ReadRequest",
        payload:
            "1536001724020124030624040018172402012403082404001818290324ff0c18"),
    TranscriptMessage(
        seq: 71, fromController: false, opcode: 0x05, name: "ReportData",
        payload:
            "1536011535012600fbe1e6bc3701240201240306240400182902181815350126000a6f8bac3701240201240308240400"
            + "1824024d181818290424ff0b18"),
    TranscriptMessage(
        seq: 73, fromController: true, opcode: 0x08, name: "InvokeCommandRequest",
        payload:
            "152800280136021537002400012401082402041835012400c824010024020024030018181824ff0c18"),
    TranscriptMessage(
        seq: 74, fromController: false, opcode: 0x09, name: "InvokeCommandResponse",
        payload:
            "152800360115350137002400012401082402041835012400001818181824ff0b18"),
    TranscriptMessage(
        seq: 76, fromController: true, opcode: 0x02, name: "ReadRequest",
        payload:
            "1536001724020124030624040018172402012403082404001818290324ff0c18"),
    TranscriptMessage(
        seq: 77, fromController: false, opcode: 0x05, name: "ReportData",
        payload:
            "1536011535012600fbe1e6bc3701240201240306240400182902181815350126000b6f8bac3701240201240308240400"
            + "182402c8181818290424ff0b18"),
    TranscriptMessage(
        seq: 79, fromController: true, opcode: 0x03, name: "SubscribeRequest",
        payload:
            "15280024010024020a36031724020124030624040018172402012403082404001818290724ff0c18"),
    TranscriptMessage(
        seq: 80, fromController: false, opcode: 0x05, name: "ReportData",
        payload:
            "152500609c36011535012600fbe1e6bc3701240201240306240400182902181815350126000b6f8bac37012402012403"
            + "08240400182402c818181824ff0b18"),
    TranscriptMessage(
        seq: 81, fromController: true, opcode: 0x01, name: "StatusResponse",
        payload:
            "1524000024ff0c18"),
    TranscriptMessage(
        seq: 83, fromController: false, opcode: 0x04, name: "SubscribeResponse",
        payload:
            "152500609c24020a24ff0b18"),
    TranscriptMessage(
        seq: 85, fromController: true, opcode: 0x08, name: "InvokeCommandRequest",
        payload:
            "1528002801360215370024000124010624020018350118181824ff0c18"),
    TranscriptMessage(
        seq: 86, fromController: false, opcode: 0x09, name: "InvokeCommandResponse",
        payload:
            "152800360115350137002400012401062402001835012400001818181824ff0b18"),
    TranscriptMessage(
        seq: 87, fromController: false, opcode: 0x05, name: "ReportData",
        payload:
            "152500609c36011535012600fce1e6bc370124020124030624040018280218181824ff0b18"),
    TranscriptMessage(
        seq: 89, fromController: true, opcode: 0x01, name: "StatusResponse",
        payload:
            "1524000024ff0c18"),
    TranscriptMessage(
        seq: 91, fromController: true, opcode: 0x08, name: "InvokeCommandRequest",
        payload:
            "1528002801360215370024000124010824020418350124007824010024020024030018181824ff0c18"),
    TranscriptMessage(
        seq: 92, fromController: false, opcode: 0x09, name: "InvokeCommandResponse",
        payload:
            "152800360115350137002400012401082402041835012400001818181824ff0b18"),
    TranscriptMessage(
        seq: 93, fromController: false, opcode: 0x05, name: "ReportData",
        payload:
            "152500609c36011535012600fde1e6bc3701240201240306240400182902181815350126000c6f8bac37012402012403"
            + "082404001824027818181824ff0b18"),
    TranscriptMessage(
        seq: 95, fromController: true, opcode: 0x01, name: "StatusResponse",
        payload:
            "1524000024ff0c18"),
]
