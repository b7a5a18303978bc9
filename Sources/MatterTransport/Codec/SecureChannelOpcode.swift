/// Opcodes of the Secure Channel protocol (0x0000).
package enum SecureChannelOpcode {
    package static let messageCounterSyncRequest: UInt8 = 0x00
    package static let messageCounterSyncResponse: UInt8 = 0x01
    package static let standaloneAck: UInt8 = 0x10
    package static let pbkdfParamRequest: UInt8 = 0x20
    package static let pbkdfParamResponse: UInt8 = 0x21
    package static let pake1: UInt8 = 0x22
    package static let pake2: UInt8 = 0x23
    package static let pake3: UInt8 = 0x24
    package static let sigma1: UInt8 = 0x30
    package static let sigma2: UInt8 = 0x31
    package static let sigma3: UInt8 = 0x32
    package static let sigma2Resume: UInt8 = 0x33
    package static let statusReport: UInt8 = 0x40
    package static let icdCheckIn: UInt8 = 0x50
}
